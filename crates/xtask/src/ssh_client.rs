//! How OpenSSH's client is run against a throwaway server with a throwaway key: only that
//! key, no prompt, and no known_hosts read or written. `xtask term` and the server's SSH
//! tests (which include this file) both run it so.

/// The `ssh` options, in `-o` pairs.
pub const THROWAWAY: [&str; 10] = [
    "-o",
    "BatchMode=yes",
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
];

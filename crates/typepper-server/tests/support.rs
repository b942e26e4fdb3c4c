//! What the test modules share: a server in this process, and PostgreSQL databases.

pub mod pg;
pub mod running;

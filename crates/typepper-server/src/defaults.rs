//! The settings' defaults, as their flags give them: each is written once, in its
//! field's `#[arg]`. Its own module, so that every module with settings can reach it
//! without a circle through `config`.

/// The values clap gives `T` with no flag and no variable set: the defaults written on
/// its fields. The environment is left out, so that a test's server doesn't take the
/// settings of the shell that runs it.
pub fn of<T: clap::Args + clap::FromArgMatches>() -> T {
    let command = T::augment_args(clap::Command::new("defaults")).mut_args(|a| a.env(None));
    // Neither fails: no argument is given, and every setting has a default.
    let matches = command.try_get_matches_from(["defaults"]);
    matches
        .and_then(|m| T::from_arg_matches(&m))
        .expect("every setting has a default")
}

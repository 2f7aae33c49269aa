//! The `queens` command line: a thin layer over the library. See the README and `queens --help`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

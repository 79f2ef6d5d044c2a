fn main() -> std::process::ExitCode {
    ysess::cli::main(ysess::tui::browse)
}

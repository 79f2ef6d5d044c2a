//! `.ci/house`, the script CI runs for the house's measures, catches what
//! it is there to catch: an arrow up the module map, a circle between
//! modules or between the files of one, a file over 600 lines before its
//! tests, a function over 100 lines; and passes this repository.

use std::path::Path;
use std::process::Command;

use crate::support::Dir;

/// Runs the script in `root` (it reads `./src`): exit status and output.
fn house(root: &Path) -> (Option<i32>, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/house");
    let out = Command::new("python3")
        .arg(script)
        .current_dir(root)
        .output()
        .expect("python3 runs the script");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// A function of `lines` lines, rustfmt's shape.
fn function(name: &str, lines: usize) -> String {
    let mut body = format!("pub fn {name}() -> u32 {{\n    let mut n = 0;\n");
    for _ in 0..lines.saturating_sub(4) {
        body.push_str("    n += 1;\n");
    }
    body.push_str("    n\n}\n");
    body
}

#[test]
fn the_house_script_passes_this_repository() {
    let (status, text) = house(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert_eq!(status, Some(0), "{text}");
    assert!(text.contains(" 0 up, 0 circles"), "{text}");
}

#[test]
fn the_house_script_names_an_arrow_up_a_circle_a_long_file_and_a_long_function() {
    let dir = Dir::new();
    for folder in ["src/input", "src/format", "src/cli"] {
        std::fs::create_dir_all(dir.join(folder)).expect("folder is made");
    }
    dir.write(
        "src/lib.rs",
        "pub mod cli;\npub mod format;\npub mod input;\n",
    );
    // input sits below format: naming it is an arrow up.
    dir.write("src/input/mod.rs", "use crate::format::Thing;\n");
    dir.write("src/format/mod.rs", "pub struct Thing;\n");
    // Two files of cli that use each other round.
    dir.write("src/cli/mod.rs", "mod a;\nmod b;\n");
    dir.write("src/cli/a.rs", "use super::b::B;\npub struct A;\n");
    dir.write("src/cli/b.rs", "use super::a::A;\npub struct B;\n");
    // 101 lines in one function; 601 lines before the tests in one file,
    // which a long test module after them does not count against.
    dir.write("src/format/long.rs", function("long", 101));
    let mut big = String::new();
    for k in 0..6 {
        big.push_str(&function(&format!("f{k}"), 100));
        big.push('\n');
    }
    big.push_str("#[cfg(test)]\nmod tests {\n");
    big.push_str(&"    // a test line\n".repeat(700));
    big.push_str("}\n");
    dir.write("src/format/big.rs", &big);
    let (status, text) = house(dir.path());
    assert_eq!(status, Some(1), "{text}");
    for expected in [
        "error: arrow up: input uses format",
        "error: circle between files: cli/a.rs <-> cli/b.rs",
        "error: src/format/long.rs:1: fn long is 101 lines (limit 100)",
        "error: src/format/big.rs: 606 lines before its tests (limit 600)",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    assert!(!text.contains("fn f0 is"), "{text}");
}

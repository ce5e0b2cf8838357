//! The `playstyles` command-line tool.

fn main() {
    println!("playstyles");
}

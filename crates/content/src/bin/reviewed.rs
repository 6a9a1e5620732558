//! `cargo reviewed FILE...` (an alias in .cargo/config.toml): stamps Spanish translations as reviewed against their
//! English files as they are now, once a person has brought them up to date. `cargo reviewed --all` stamps every
//! translation whose English changed; `cargo reviewed --list` only lists them. Run from the project's folder (or
//! name it with `--content DIR`).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut content_dir = PathBuf::from("content");
    let (mut files, mut all, mut list) = (Vec::new(), false, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--all" => all = true,
            "--list" => list = true,
            "--content" => match args.next() {
                Some(dir) => content_dir = PathBuf::from(dir),
                None => return usage("--content needs a folder"),
            },
            "-h" | "--help" => return usage(""),
            flag if flag.starts_with('-') => return usage(&format!("unknown option {flag}")),
            file => files.push(PathBuf::from(file)),
        }
    }
    if all || list {
        files.extend(content::stale(&content_dir));
    }
    if list {
        for file in &files {
            println!("{}", file.display());
        }
        return ExitCode::SUCCESS;
    }
    if files.is_empty() {
        return usage(if all {
            ""
        } else {
            "name the translations you reviewed, or --all"
        });
    }
    let mut failed = false;
    for file in files {
        match content::stamp(&content_dir, &file) {
            Ok(Some(stamped)) => match std::fs::write(&file, stamped) {
                Ok(()) => println!("stamped {} as reviewed", file.display()),
                Err(error) => {
                    eprintln!("{}: {error}", file.display());
                    failed = true;
                }
            },
            Ok(None) => println!(
                "{} was already stamped against its English as it is",
                file.display()
            ),
            Err(why) => {
                eprintln!("{why}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn usage(problem: &str) -> ExitCode {
    if !problem.is_empty() {
        eprintln!("{problem}\n");
    }
    eprintln!(
        "usage: cargo reviewed content/es/FILE...   stamp these translations as reviewed against their English\n       \
         cargo reviewed --all              stamp every translation whose English changed\n       \
         cargo reviewed --list             list them, stamping nothing\n\
         Only after a person has brought the Spanish up to date: the stamp says it says what the English says."
    );
    if problem.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

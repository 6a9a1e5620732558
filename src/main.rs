//! The `truckins` command: serves the site (the default) and, later, administers leads.

use std::net::IpAddr;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "truckins", version, about = "The trucking insurance agency's website and lead engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the website (what runs when no command is given).
    Serve(ServeArgs),
}

#[derive(clap::Args, Default)]
struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1, or Rocket.toml / ROCKET_ADDRESS].
    #[arg(long, env = "TRUCKINS_ADDRESS")]
    address: Option<IpAddr>,
    /// Port to listen on [default: 8000, or Rocket.toml / ROCKET_PORT].
    #[arg(long, short, env = "TRUCKINS_PORT")]
    port: Option<u16>,
}

#[rocket::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve(ServeArgs::default())) {
        Command::Serve(args) => serve(args).await,
    }
}

async fn serve(args: ServeArgs) -> std::process::ExitCode {
    let mut figment = rocket::Config::figment();
    if let Some(address) = args.address {
        figment = figment.merge(("address", address));
    }
    if let Some(port) = args.port {
        figment = figment.merge(("port", port));
    }
    match truckins::rocket_with(figment).launch().await {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("truckins could not serve: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

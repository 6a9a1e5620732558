//! `truckins serve` (and no command at all): its flags over the configuration, the configuration checked and
//! printed, a runtime sized from it, and the server run on it until a shutdown signal.

use std::net::IpAddr;

use super::out::say;
use rocket::figment::Figment;
use truckins::config;

#[derive(clap::Args, Default)]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1; also `address` in the settings file, ROCKET_ADDRESS or TRUCKINS_ADDRESS].
    #[arg(long)]
    address: Option<IpAddr>,
    /// Port to listen on [default: 8000; also `port` in the settings file, ROCKET_PORT or TRUCKINS_PORT].
    #[arg(long, short)]
    port: Option<u16>,
    /// Lead submissions accepted per client IP per 10 minutes, both forms together [default: 20].
    #[arg(long)]
    ip_limit: Option<usize>,
    /// The site's public address, e.g. https://www.example.com, for canonical links and the sitemap
    /// [default: the one the site was built with].
    #[arg(long)]
    base_url: Option<String>,
    /// A reverse proxy whose X-Forwarded-For is believed; repeat for several [default: none].
    #[arg(long = "trusted-proxy")]
    trusted_proxies: Vec<IpAddr>,
    /// Request log format: text or json [default: text].
    #[arg(long, value_parser = ["text", "json"])]
    log_format: Option<String>,
    /// Where each lead's e-mail goes; repeat for several [default: none; also `notify_to` in the settings file or
    /// TRUCKINS_NOTIFY_TO, comma-separated]. The relay (`smtp_url`, which holds a password) and the webhook's secret
    /// are read only from the settings file or the environment, never from a flag that any user can see in `ps`.
    #[arg(long = "notify-to")]
    notify_to: Vec<String>,
    /// The agency's own address every e-mail is sent from [also `mail_from` or TRUCKINS_MAIL_FROM].
    #[arg(long)]
    mail_from: Option<String>,
    /// Send each visitor a short confirmation, at most one per address per 24 h [default: off; also `autoreply`
    /// or TRUCKINS_AUTOREPLY].
    #[arg(long)]
    autoreply: bool,
}

pub fn run(args: ServeArgs, mut figment: Figment) -> Result<(), String> {
    if let Some(address) = args.address {
        figment = figment.merge(("address", address));
    }
    if let Some(port) = args.port {
        figment = figment.merge(("port", port));
    }
    if let Some(limit) = args.ip_limit {
        figment = figment.merge(("ip_limit", limit));
    }
    if let Some(base_url) = args.base_url {
        figment = figment.merge(("base_url", base_url));
    }
    if !args.trusted_proxies.is_empty() {
        figment = figment.merge(("trusted_proxies", args.trusted_proxies));
    }
    if let Some(format) = args.log_format {
        figment = figment.merge(("log_format", format));
    }
    if !args.notify_to.is_empty() {
        figment = figment.merge(("notify_to", args.notify_to));
    }
    if let Some(from) = args.mail_from {
        figment = figment.merge(("mail_from", from));
    }
    if args.autoreply {
        figment = figment.merge(("autoreply", true));
    }
    let settings = config::load(&figment)?;
    if let Some(file) = &settings.test_clock {
        truckins::clock::use_test_clock(file);
    }
    say!(
        "truckins {} starting with:\n{}",
        env!("CARGO_PKG_VERSION"),
        config::describe(&figment, &settings, truckins::site::build_base_url())
    );
    let rocket_config =
        rocket::Config::try_from(&figment).map_err(|e| format!("invalid setting: {e}"))?;
    let runtime = rocket::tokio::runtime::Builder::new_multi_thread()
        .worker_threads(rocket_config.workers.max(1))
        .max_blocking_threads(rocket_config.max_blocking.max(1))
        .thread_name("truckins-worker")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(truckins::server::serve(figment, settings))
}

//! `queens serve`: the web page and its JSON API (see docs/see.md).

use super::Status;
use super::{cancel_flag, parse_seconds, Failure, EXIT_INTERRUPTED};
use clap::Args;
use queens::serve::{self, Config};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// Arguments of `queens serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed on stderr either way).
    #[arg(long, value_name = "P", default_value_t = 8080)]
    pub port: u16,
    /// Address to bind: an IP address or a host name such as `localhost` (its first IPv4
    /// address).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", value_parser = parse_bind)]
    pub bind: IpAddr,
    /// The longest time limit a request may ask for, in seconds; also the limit of requests that
    /// ask for none.
    #[arg(long, value_name = "S", value_parser = parse_seconds, default_value = "10")]
    pub max_time_limit: Duration,
    /// How many solves may run at once; further requests get 429.
    #[arg(long, value_name = "K", default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    pub max_solves: u64,
    /// The largest N that /api/count/N counts.
    #[arg(long, value_name = "N", default_value_t = 18,
          value_parser = clap::value_parser!(u32).range(1..=32))]
    pub max_count_n: u32,
    /// Worker threads of each solve, at most 256 (default: one per core).
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = super::parse_threads)]
    pub threads: usize,
}

/// An IP address, or the address a host name resolves to (IPv4 first).
fn parse_bind(text: &str) -> Result<IpAddr, String> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Ok(ip);
    }
    let found: Vec<IpAddr> = std::net::ToSocketAddrs::to_socket_addrs(&(text, 0))
        .map_err(|e| format!("'{text}' is neither an IP address nor a known host name ({e})"))?
        .map(|a| a.ip())
        .collect();
    found
        .iter()
        .find(|ip| ip.is_ipv4())
        .or(found.first())
        .copied()
        .ok_or_else(|| format!("the host name '{text}' has no address"))
}

/// Serves until Ctrl-C. The first line on stderr is `listening on http://ADDR:PORT`.
pub fn run(args: &ServeArgs) -> Result<Status, Failure> {
    let config = Config {
        addr: SocketAddr::new(args.bind, args.port),
        max_time_limit: args.max_time_limit,
        max_solves: args.max_solves as usize,
        max_count_n: args.max_count_n,
        threads: args.threads,
        ..Config::default()
    };
    let stop = cancel_flag();
    serve::run(config, stop.clone(), |addr| {
        eprintln!("listening on http://{addr}");
    })
    .map_err(|e| Failure::bad_input(format!("cannot serve on {}:{}: {e}", args.bind, args.port)))?;
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Ok(Status::from(EXIT_INTERRUPTED));
    }
    Ok(Status::SUCCESS)
}

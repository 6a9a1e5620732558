# The site in a container: the same build steps as the README's (build.rs installs the web app's packages and builds
# the site; `cargo build --release --locked` makes the one binary), then a small runtime image holding only that
# binary, run as a non-root user with the leads database on a volume.
#   docker build -t truckins .
#   docker run -d -p 8000:8000 -v truckins-data:/data -e TRUCKINS_BASE_URL=https://www.example.com truckins
# With built-in HTTPS (the certificate by ACME, kept in the database on the volume), publish 80 and 443 instead
# (Docker lets a container's user bind ports below 1024 in its own network namespace):
#   docker run -d -p 80:80 -p 443:443 -v truckins-data:/data -e TRUCKINS_BASE_URL=https://www.example.com \
#     -e TRUCKINS_TLS_DOMAINS=example.com,www.example.com -e TRUCKINS_ACME_EMAIL=owner@example.com truckins
# Settings come from the environment (-e TRUCKINS_..., --env-file), or from a settings file mounted where every
# command reads it by default (deploy/truckins.toml; owned by uid 10001 and mode 0600 if it holds a secret):
#   -v /etc/truckins/truckins.toml:/etc/truckins/truckins.toml:ro
# The variables below still win over the file (its `database` among them).

FROM node:20-bookworm-slim AS node

FROM rust:1.95-bookworm AS build
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
WORKDIR /src
COPY . .
RUN cargo build --release --locked

FROM debian:bookworm-slim
# tzdata: the slim image has no /usr/share/zoneinfo, where the `time_zone` setting (America/Chicago) is looked up.
RUN apt-get update && apt-get install -y --no-install-recommends tzdata && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin truckins \
 && mkdir -p /data && chown truckins:truckins /data
COPY --from=build /src/target/release/truckins /usr/local/bin/truckins
USER truckins
WORKDIR /data
ENV TRUCKINS_ADDRESS=0.0.0.0 \
    TRUCKINS_PORT=8000 \
    TRUCKINS_DATABASE=/data/truckins.db
VOLUME ["/data"]
EXPOSE 8000 80 443
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["truckins", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["truckins"]
CMD ["serve"]

# Off-site replication in Docker (docs/replication.md). The image above runs the server
# alone. For Litestream in front of it, build that image first, then a second one on top of it which adds the
# official release of Litestream (checked against the release's checksums) and starts
# `litestream replicate -exec` instead (x86_64; on an ARM server set LITESTREAM_ARCH=arm64):
#
#   docker build -t truckins .
#   docker build -t truckins-litestream - <<'END'
#   FROM truckins
#   ARG LITESTREAM_VERSION=0.5.17
#   ARG LITESTREAM_ARCH=x86_64
#   USER root
#   ADD https://github.com/benbjohnson/litestream/releases/download/v${LITESTREAM_VERSION}/litestream-${LITESTREAM_VERSION}-linux-${LITESTREAM_ARCH}.tar.gz /tmp/litestream/
#   ADD https://github.com/benbjohnson/litestream/releases/download/v${LITESTREAM_VERSION}/checksums.txt /tmp/litestream/
#   RUN cd /tmp/litestream && sha256sum --check --ignore-missing checksums.txt \
#    && tar -xzf litestream-${LITESTREAM_VERSION}-linux-${LITESTREAM_ARCH}.tar.gz litestream \
#    && install -m 0755 litestream /usr/local/bin/litestream && cd / && rm -rf /tmp/litestream \
#    && install -d -o truckins -g truckins -m 0700 /run/truckins
#   USER truckins
#   ENV TRUCKINS_REPLICA_SOCKET=/run/truckins/litestream.sock \
#       TRUCKINS_REPLICA_ACKNOWLEDGE=true
#   ENTRYPOINT ["/bin/sh", "-c", "umask 0077 && exec litestream replicate -config /etc/truckins/litestream.yml -exec '/usr/local/bin/truckins serve'"]
#   CMD []
#   END
#
# Its configuration is deploy/litestream.yml with `path: /data/truckins.db` (the database on the /data volume),
# mounted read-only with the SFTP key (made readable by the image's user: chown 10001 on the host, mode 0600).
# For an S3 bucket, add `--env-file /etc/truckins/secrets.env` (its LITESTREAM_ACCESS_KEY_ID and
# LITESTREAM_SECRET_ACCESS_KEY lines) instead of the key. umask 0077 keeps a restored database readable by its owner
# only. Give Litestream time to copy the last commits on `docker stop` (Docker's default is 10 s):
#   docker run -d --name truckins --stop-timeout 60 -p 127.0.0.1:8000:8000 -v truckins-data:/data \
#     -v /etc/truckins/litestream.yml:/etc/truckins/litestream.yml:ro \
#     -v /etc/truckins/litestream-key:/etc/truckins/litestream-key:ro \
#     -e TRUCKINS_BASE_URL=https://www.example.com truckins-litestream
# On a new host, the first start restores the database into the empty volume before the server opens it.

# The site in a container: the same build steps as the README (build.rs installs the web app's packages and builds
# the site; `cargo build --release --locked` makes the one binary), then a small runtime image holding only that
# binary, run as a non-root user with the leads database on a volume.
#   docker build -t truckins .
#   docker run -d -p 8000:8000 -v truckins-data:/data -e TRUCKINS_BASE_URL=https://www.example.com truckins

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
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin truckins \
 && mkdir -p /data && chown truckins:truckins /data
COPY --from=build /src/target/release/truckins /usr/local/bin/truckins
USER truckins
WORKDIR /data
ENV TRUCKINS_ADDRESS=0.0.0.0 \
    TRUCKINS_PORT=8000 \
    TRUCKINS_DATABASE=/data/truckins.db
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["truckins", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["truckins"]
CMD ["serve"]

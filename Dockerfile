# loaderd: a fully static binary on an empty base image.
#   docker build -t loaderd . && docker run -p 8080:8080 loaderd
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY config ./config
# -static-executable: no libc or Swift runtime needed at run time (FROM scratch).
RUN swift build -c release --product loaderd -Xswiftc -static-executable -Xlinker -s \
 && mkdir -p /out/bin /out/data /out/loaders \
 && cp .build/release/loaderd /out/bin/loaderd

FROM scratch
# The version is LoaderService.version (a test keeps this label and CHANGELOG.md in step).
LABEL org.opencontainers.image.title="loaderd" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.licenses="Apache-2.0"
COPY --from=build /out/bin/loaderd /usr/local/bin/loaderd
COPY --from=build --chown=65532:65532 /out/data /var/lib/loaderd
# Loader definitions (*.json) mounted here join the catalogue at start.
COPY --from=build /out/loaders /etc/loaderd/loaders
# Listen on every interface inside the container; sessions journal to the volume.
# A config file mounted at /etc/loaderd/loaderd.json is read at start.
ENV LOADERD_HOST=0.0.0.0 \
    LOADERD_PORT=8080 \
    LOADERD_DATA_DIR=/var/lib/loaderd \
    LOADERD_LOADERS_DIR=/etc/loaderd/loaders
USER 65532:65532
EXPOSE 8080
VOLUME ["/var/lib/loaderd"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=2s CMD ["/usr/local/bin/loaderd", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/loaderd"]

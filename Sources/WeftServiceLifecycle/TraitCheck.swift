#if !ServiceLifecycle
    #error(
        """
        WeftServiceLifecycle needs this package's ServiceLifecycle trait, which brings \
        swift-service-lifecycle: .package(url: …, from: …, traits: ["ServiceLifecycle"]). In a clone \
        of this repository: `swift build --traits App` (the app and every test; or scripts/run and \
        scripts/test), or `--traits ServiceLifecycle` for the libraries alone.
        """
    )
#endif

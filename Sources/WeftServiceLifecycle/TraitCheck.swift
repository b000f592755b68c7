#if !ServiceLifecycle
    #error(
        """
        WeftServiceLifecycle needs this package's ServiceLifecycle trait, which brings \
        swift-service-lifecycle: .package(url: …, from: …, traits: ["ServiceLifecycle"])
        """
    )
#endif

// The app's targets (its assets, its domain, its screens, `weft`) need the App trait, which
// brings their stack: a library user never builds them, and a clone built without it stops here
// first, the first of them to build, saying what to type instead of "no such module 'GRDB'".
#if !App
    #error(
        "The weft app needs the App trait: `swift build --traits App`, `swift run --traits App weft`, `swift test --traits App` (or scripts/run and scripts/test). A library user builds only Weft, WeftInitializer, WeftTesting and WeftServiceLifecycle, which need no trait."
    )
#endif

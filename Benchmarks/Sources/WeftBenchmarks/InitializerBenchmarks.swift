enum InitializerBenchmarks {
    static func run() async {}
}

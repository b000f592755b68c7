enum ContainerBenchmarks {
    static func run() async {}
}

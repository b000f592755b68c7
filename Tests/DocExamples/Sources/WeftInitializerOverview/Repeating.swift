import WeftInitializer

/// The repeat block, on the result of the first block's run.
@MainActor
func switchToStaging() async throws {
    // doc begins
    let switched = try result.repeatInitializer(createProcess: { previous in
        let process = AppProcess(environment: .staging)
        process.database = previous.database  // opened once, by a simple step
        return process
    })
    print(switched.plan.map(\.title))  // ["Create the repository", "Fetch a cat fact"]
    let staging = try await switched.run()
    print(staging.container.environment)  // staging
    // doc ends
    precondition(staging.process.database === result.process.database, "the database was carried over")
}

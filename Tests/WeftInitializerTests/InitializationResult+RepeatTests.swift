import Testing
import WeftInitializer

@MainActor
@Suite("runRepeat", .timeLimit(.minutes(1)))
struct InitializationResultRepeatTests {
    /// Steps of every type in every phase; each counts its invocations in `journal`.
    private func countingInitializer(
        journal: Journal,
        log: CallbackLog? = nil,
        createProcess: @escaping @MainActor @Sendable () -> TestProcess = { TestProcess() }
    ) throws -> DependencyInitializer<TestProcess> {
        func sync(_ title: String, _ type: InitializationStepType) -> SyncInitializationStep<TestProcess> {
            SyncInitializationStep(title: title, type: type) { process in
                process.append("\(title)@\(process.environment)")
            }
        }
        return try DependencyInitializer(
            createProcess: createProcess,
            preSyncSteps: [sync("S1", .simple), sync("R1", .repeatable)],
            asyncSteps: [logStep("S2", .simple, journal: journal), logStep("R2", .repeatable, journal: journal)],
            postSyncSteps: [sync("R3", .repeatable), sync("S3", .simple)],
            callbacks: InitializationCallbacks(
                onSuccess: { result in log?.entries.append("success \(result.process.environment)") },
                onError: { failure in log?.entries.append("error \(failure.failedStep.title)") }
            )
        )
    }

    @Test("re-runs exactly the repeatable steps, in phase order, on the process from the new createProcess")
    func repeatsRepeatableSteps() async throws {
        let journal = Journal()
        let first = try await countingInitializer(journal: journal).run()
        #expect(first.container.log.count == 6)

        let second = try await first.runRepeat(createProcess: { previous in
            TestProcess(environment: "staging", database: previous.database)
        })
        #expect(second.container.log == ["R1@staging", "R2", "R3@staging"])
        #expect(second.process !== first.process)
        #expect(second.process.environment == "staging")
        #expect(await journal.count(of: "S2") == 1)
        #expect(await journal.count(of: "R2") == 2)
        #expect(second.initializer.plan.map(\.title) == ["R1", "R2", "R3"])
    }

    @Test("without a new createProcess, a repeat run gets a fresh process from the original one")
    func originalCreateProcess() async throws {
        let journal = Journal()
        let first = try await countingInitializer(journal: journal).run()
        let second = try await first.runRepeat()
        #expect(second.process !== first.process)
        #expect(second.container.environment == "default")
        #expect(second.container.log == ["R1@default", "R2", "R3@default"])
    }

    @Test("a repeat of a repeat keeps the environment switch and carries the previous process over")
    func chainedRepeat() async throws {
        let journal = Journal()
        let first = try await countingInitializer(journal: journal).run()
        let second = try await first.runRepeat(createProcess: { previous in
            TestProcess(environment: previous.environment + "+", database: "carried")
        })
        let third = try await second.runRepeat()
        #expect(third.container.environment == "default++")
        #expect(third.container.database == "carried")
        #expect(await journal.count(of: "R2") == 3)
        #expect(await journal.count(of: "S2") == 1)
    }

    @Test("replacement step lists run only their repeatable steps; nil keeps the original lists")
    func replacementSteps() async throws {
        let journal = Journal()
        let first = try await countingInitializer(journal: journal).run()
        let second = try await first.runRepeat(
            asyncSteps: [logStep("X", .repeatable, journal: journal), logStep("Y", .simple, journal: journal)]
        )
        #expect(second.container.log == ["R1@default", "X", "R3@default"])
        #expect(await journal.count(of: "Y") == 0)
        #expect(await journal.count(of: "R2") == 1)
    }

    @Test("replacement callbacks replace the original ones; nil keeps them")
    func replacementCallbacks() async throws {
        let journal = Journal()
        let log = CallbackLog()
        let first = try await countingInitializer(journal: journal, log: log).run()
        _ = try await first.runRepeat()
        _ = try await first.runRepeat(
            callbacks: InitializationCallbacks(onSuccess: { _ in log.entries.append("replaced") }))
        #expect(log.entries == ["success default", "success default", "replaced"])
    }

    @Test("a repeat without repeatable steps is a typed configuration error")
    func nothingToRepeat() async throws {
        let result = try await DependencyInitializer(createProcess: { TestProcess() }, preSyncSteps: [logStep("once")])
            .run()
        let error = #expect(throws: InitializationConfigurationError.self) {
            try result.repeatInitializer()
        }
        #expect(error?.code == .noRepeatableSteps)
    }

    @Test("a failed run can be repeated with another environment from the thrown error")
    func repeatAfterThrownFailure() async throws {
        let journal = Journal()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess(environment: "offline") },
            preSyncSteps: [SyncInitializationStep(title: "Open the database") { process in process.database = "db" }],
            asyncSteps: [
                AsyncInitializationStep(title: "Reach the server", type: .repeatable) { process in
                    await journal.record("reach")
                    guard process.environment != "offline" else { throw TestError(message: "unreachable") }
                    await process.append("reached")
                }
            ]
        )
        do {
            _ = try await initializer.run()
            Issue.record("The offline run succeeded")
        } catch let failure as InitializationFailure<TestProcess> {
            #expect(failure.failedStep.title == "Reach the server")
            let retry = try failure.repeatInitializer(createProcess: { previous in
                TestProcess(environment: "online", database: previous.database)
            })
            #expect(retry.plan.map(\.title) == ["Reach the server"])
            let result = try await retry.run()
            #expect(result.container == TestContainer(environment: "online", log: ["reached"], database: "db"))
        }
        #expect(await journal.count(of: "reach") == 2)
    }

    @Test("the error callback's failure starts a repeat run that reports through the callbacks")
    func repeatFromErrorCallback() async throws {
        let log = CallbackLog()
        let (done, doneContinuation) = AsyncStream<Void>.makeStream()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess(environment: "offline") },
            asyncSteps: [
                AsyncInitializationStep(title: "Reach the server", type: .repeatable) { process in
                    guard process.environment != "offline" else { throw TestError(message: "unreachable") }
                }
            ],
            callbacks: InitializationCallbacks(
                onSuccess: { result in
                    log.entries.append("success \(result.process.environment)")
                    doneContinuation.finish()
                },
                onError: { failure in
                    log.entries.append("error \(failure.process.environment)")
                    do {
                        try failure.repeatInitializer(createProcess: { _ in TestProcess(environment: "online") })
                            .start()
                    } catch {
                        Issue.record("repeatInitializer threw \(error)")
                    }
                }
            )
        )
        try initializer.start()
        for await _ in done {}
        #expect(log.entries == ["error offline", "success online"])
    }
}

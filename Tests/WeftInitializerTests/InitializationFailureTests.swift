import Testing
import WeftInitializer

@MainActor
@Suite("InitializationFailure", .timeLimit(.minutes(1)))
struct InitializationFailureTests {
    /// Runs `initializer` through both forms' reporting: returns the thrown failure and
    /// checks `onError` saw the same one, exactly once.
    private func expectFailure(
        createProcess: @escaping @MainActor @Sendable () -> TestProcess = { TestProcess() },
        preSyncSteps: [SyncInitializationStep<TestProcess>] = [],
        asyncSteps: [AsyncInitializationStep<TestProcess>] = [],
        postSyncSteps: [SyncInitializationStep<TestProcess>] = []
    ) async throws -> (InitializationFailure<TestProcess>, CallbackLog) {
        let log = CallbackLog()
        let initializer = try DependencyInitializer(
            createProcess: createProcess,
            preSyncSteps: preSyncSteps,
            asyncSteps: asyncSteps,
            postSyncSteps: postSyncSteps,
            callbacks: InitializationCallbacks(
                onSuccess: { _ in log.entries.append("success") },
                onError: { failure in
                    log.entries.append("error")
                    log.failures.append(failure)
                }
            )
        )
        do {
            _ = try await initializer.run()
        } catch let error as InitializationFailure<TestProcess> {
            #expect(log.entries == ["error"])
            #expect(log.failures.first?.failedStep == error.failedStep)
            #expect(log.failures.first?.process === error.process)
            #expect(log.failures.first?.elapsed == error.elapsed)
            return (error, log)
        }
        Issue.record("The run succeeded but was expected to fail")
        throw TestError(message: "unexpected success")
    }

    @Test("a failing pre-sync step stops the run: later steps and phases do not run")
    func preSyncFailure() async throws {
        let journal = Journal()
        let (failure, _) = try await expectFailure(
            preSyncSteps: [logStep("first"), failingStep("second"), logStep("third")],
            asyncSteps: [logStep("async", journal: journal)],
            postSyncSteps: [logStep("post")]
        )
        #expect(failure.failedStep.title == "second")
        #expect(failure.failedStep.phase == .preSync)
        #expect(failure.error as? TestError == TestError(message: "boom"))
        #expect(failure.process.log == ["first"])
        #expect(await journal.entries.isEmpty)
        #expect(failure.stepTimings.map(\.step.title) == ["first", "second"])
        #expect(failure.stepTimings.map(\.outcome) == [.finished, .failed])
    }

    @Test("a failing async step cancels its siblings, skips post-sync and reports the partial process")
    func asyncFailure() async throws {
        let journal = Journal()
        let barrier = Barrier(count: 3)
        let bothCancelled = Barrier(count: 3)
        let waiter = { (title: String) in
            AsyncInitializationStep<TestProcess>(title: title) { process in
                await process.append("\(title) started")
                await barrier.arrive()
                do {
                    try await suspendUntilCancelled()
                } catch {
                    await journal.record("\(title) cancelled")
                    await bothCancelled.arrive()
                    throw error
                }
            }
        }
        let failing = AsyncInitializationStep<TestProcess>(title: "Open the history database") { _ in
            await barrier.arrive()
            throw TestError(message: "disk is full")
        }
        let (failure, _) = try await expectFailure(
            preSyncSteps: [logStep("pre")],
            asyncSteps: [waiter("A"), failing, waiter("B")],
            postSyncSteps: [logStep("post")]
        )
        #expect(failure.failedStep.title == "Open the history database")
        #expect(failure.failedStep.phase == .async)
        #expect(failure.failedStep.position == 2)
        // The run does not wait for its abandoned siblings; their cancellation reaches them.
        await bothCancelled.arrive()
        #expect(Set(await journal.entries) == ["A cancelled", "B cancelled"])
        #expect(failure.process.log.first == "pre")
        #expect(Set(failure.process.log.dropFirst()) == ["A started", "B started"])
        #expect(!failure.process.log.contains("post"))
        let outcomes = Dictionary(uniqueKeysWithValues: failure.stepTimings.map { ($0.step.title, $0.outcome) })
        #expect(outcomes == ["pre": .finished, "A": .cancelled, "B": .cancelled, "Open the history database": .failed])
    }

    @Test("a failing post-sync step keeps what earlier phases built")
    func postSyncFailure() async throws {
        let journal = Journal()
        let (failure, _) = try await expectFailure(
            preSyncSteps: [logStep("pre")],
            asyncSteps: [logStep("async", journal: journal)],
            postSyncSteps: [failingStep("post 1"), logStep("post 2")]
        )
        #expect(failure.failedStep.phase == .postSync)
        #expect(failure.failedStep.title == "post 1")
        #expect(failure.process.log == ["pre", "async"])
    }

    @Test("a throwing toContainer fails the container phase")
    func containerFailure() async throws {
        let (failure, _) = try await expectFailure(
            createProcess: {
                let process = TestProcess()
                process.containerError = TestError(message: "no repository")
                return process
            },
            preSyncSteps: [logStep("pre")]
        )
        #expect(failure.failedStep.phase == .container)
        #expect(failure.error as? TestError == TestError(message: "no repository"))
    }

    @Test("describes the failed step, its phase, the elapsed time and the underlying error")
    func description() async throws {
        let (failure, _) = try await expectFailure(
            asyncSteps: [
                AsyncInitializationStep(title: "Open the history database") { _ in
                    throw TestError(message: "disk is full")
                }
            ]
        )
        let text = String(describing: failure)
        #expect(text.hasPrefix("Step 'Open the history database' (async phase) failed after "))
        #expect(text.hasSuffix(" ms: disk is full"))
        #expect(
            text
                == "Step 'Open the history database' (async phase) failed after \(failure.elapsed.wholeMilliseconds) ms: disk is full"
        )
    }

    @Test("fails a step that outlives its timeout with an error naming the step and timeout, and cancels it")
    func timeout() async throws {
        let journal = Journal()
        let cancelled = Gate()
        let (failure, _) = try await expectFailure(
            asyncSteps: [
                // Wall clock (the phased steps take no clock), but nothing has to beat it: the step only
                // ends when cancelled, so a busy machine can make the timeout late, never wrong.
                AsyncInitializationStep(title: "Reach the fact server", timeout: .milliseconds(20)) { _ in
                    do {
                        try await suspendUntilCancelled()
                    } catch {
                        await journal.record("cancelled")
                        await cancelled.open()
                        throw error
                    }
                }
            ],
            postSyncSteps: [logStep("post")]
        )
        let timeout = try #require(failure.error as? InitializationStepTimeoutError)
        #expect(timeout.stepTitle == "Reach the fact server")
        #expect(timeout.timeout == .milliseconds(20))
        #expect(timeout.description.contains("'Reach the fact server'"))
        #expect(timeout.description.contains("20 ms"))
        #expect(failure.failedStep.title == "Reach the fact server")
        await cancelled.wait()
        #expect(await journal.entries == ["cancelled"])
        #expect(failure.process.log.isEmpty)
    }

    @Test("a step that finishes within its timeout succeeds")
    func withinTimeout() async throws {
        let result = try await DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "quick", timeout: .seconds(600), priority: .high) { process in
                    await process.append("quick")
                }
            ]
        ).run()
        #expect(result.container.log == ["quick"])
    }

    @Test("cancelling the task awaiting run() cancels the run and reports a cancellation once")
    func cancellation() async throws {
        let journal = Journal()
        let log = CallbackLog()
        let stepCancelled = Gate()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "wait") { _ in
                    startedContinuation.yield()
                    do {
                        try await suspendUntilCancelled()
                    } catch {
                        await journal.record("cancelled")
                        await stepCancelled.open()
                        throw error
                    }
                }
            ],
            postSyncSteps: [logStep("post")],
            callbacks: InitializationCallbacks(
                onSuccess: { _ in log.entries.append("success") },
                onError: { failure in log.entries.append("error \(failure.isCancellation)") }
            )
        )
        let task = Task { try await initializer.run() }
        for await _ in started { break }
        task.cancel()
        let outcome = await task.result
        guard case .failure(let error) = outcome else {
            Issue.record("The cancelled run succeeded")
            return
        }
        let failure = try #require(error as? InitializationFailure<TestProcess>)
        #expect(failure.isCancellation)
        #expect(failure.failedStep.title == "wait")
        await stepCancelled.wait()
        #expect(await journal.entries == ["cancelled"])
        #expect(log.entries == ["error true"])
    }

    @Test("cancelling the task returned by start() cancels the run")
    func cancellationOfCallbackForm() async throws {
        let log = CallbackLog()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "wait") { _ in
                    startedContinuation.yield()
                    try await suspendUntilCancelled()
                }
            ],
            callbacks: InitializationCallbacks(
                onSuccess: { _ in log.entries.append("success") },
                onError: { failure in log.entries.append("error \(failure.failedStep.title) \(failure.isCancellation)")
                }
            )
        ).start()
        for await _ in started { break }
        task.cancel()
        await task.value
        #expect(log.entries == ["error wait true"])
    }
}

extension Duration {
    /// Whole milliseconds, rounded to the nearest, as the failure description prints them.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
    }
}

import Testing
import WeftInitializer

/// Cancels the task running the current code (the run's task, inside a sync step).
@MainActor
private func cancelCurrentRun() {
    withUnsafeCurrentTask { $0?.cancel() }
}

@MainActor
@Suite("Cancellation and timeouts", .timeLimit(.minutes(1)))
struct CancellationTests {
    /// Runs `initializer` in a task, lets `cancel` decide when to cancel it, and returns
    /// the failure together with what the callbacks saw.
    private func cancelledRun(
        preSyncSteps: [SyncInitializationStep<TestProcess>] = [],
        asyncSteps: [AsyncInitializationStep<TestProcess>] = [],
        postSyncSteps: [SyncInitializationStep<TestProcess>] = [],
        cancel: (Task<InitializationResult<TestProcess>, any Error>) async -> Void = { _ in }
    ) async throws -> (InitializationFailure<TestProcess>?, [String]) {
        let log = CallbackLog()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: preSyncSteps,
            asyncSteps: asyncSteps,
            postSyncSteps: postSyncSteps,
            callbacks: InitializationCallbacks(
                onSuccess: { _ in log.entries.append("success") },
                onError: { failure in log.entries.append("error \(failure.isCancellation)") }
            )
        )
        let task = Task { try await initializer.run() }
        await cancel(task)
        let outcome = await task.result
        guard case .failure(let error) = outcome else { return (nil, log.entries) }
        return (error as? InitializationFailure<TestProcess>, log.entries)
    }

    @Test("a cancelled all-async run whose step swallows the cancellation fails with CancellationError")
    func asyncStepSwallowsCancellation() async throws {
        let entered = Gate()
        let (failure, entries) = try await cancelledRun(
            asyncSteps: [
                AsyncInitializationStep(title: "nap") { _ in
                    await entered.open()
                    try? await Task.sleep(for: .seconds(600))
                }
            ],
            cancel: { task in
                await entered.wait()
                task.cancel()
            }
        )
        let cancelled = try #require(failure, "the cancelled run succeeded")
        #expect(cancelled.isCancellation)
        #expect(cancelled.failedStep.title == "nap")
        #expect(entries == ["error true"])
    }

    @Test("a pre-sync-only run cancelled during its last step fails with CancellationError")
    func cancelledDuringLastPreSyncStep() async throws {
        let (failure, entries) = try await cancelledRun(
            preSyncSteps: [logStep("first"), SyncInitializationStep(title: "last") { _ in cancelCurrentRun() }]
        )
        let cancelled = try #require(failure, "the cancelled run succeeded")
        #expect(cancelled.isCancellation)
        #expect(cancelled.process.log == ["first"])
        #expect(entries == ["error true"])
    }

    @Test("a run cancelled during its last post-sync step fails with CancellationError")
    func cancelledDuringLastPostSyncStep() async throws {
        let journal = Journal()
        let (failure, entries) = try await cancelledRun(
            asyncSteps: [logStep("async", journal: journal)],
            postSyncSteps: [SyncInitializationStep(title: "last") { _ in cancelCurrentRun() }]
        )
        let cancelled = try #require(failure, "the cancelled run succeeded")
        #expect(cancelled.isCancellation)
        #expect(entries == ["error true"])
    }

    @Test("a run cancelled during its pre-sync phase fails before its async steps start")
    func cancelledBeforeAsyncPhase() async throws {
        let journal = Journal()
        let (failure, entries) = try await cancelledRun(
            preSyncSteps: [SyncInitializationStep(title: "pre") { _ in cancelCurrentRun() }],
            asyncSteps: [logStep("async", journal: journal)]
        )
        let cancelled = try #require(failure, "the cancelled run succeeded")
        #expect(cancelled.isCancellation)
        #expect(cancelled.failedStep.phase == .async)
        #expect(await journal.entries.isEmpty)
        #expect(entries == ["error true"])
    }
}

/// An async step that ignores cancellation, as a legacy callback API does: it announces
/// itself on `entered`, waits for `release`, records that it returned and produces a
/// database name whose `apply` would log "applied".
private func legacyStep(
    timeout: Duration? = nil, entered: Gate, release: Gate, returned: Gate, journal: Journal
) -> AsyncInitializationStep<TestProcess> {
    AsyncInitializationStep(title: "legacy", timeout: timeout) { _ in
        await entered.open()
        await release.wait()
        await journal.record("step returned")
        await returned.open()
        return "late database"
    } apply: { process, database in
        process.database = database
        process.append("applied")
    }
}

/// Gives a late result every chance to reach the main actor before a test checks that it
/// did not: the step has returned, and queued main-actor work runs first.
@MainActor
private func drainMainActor() async {
    for _ in 0..<100 { await Task.yield() }
}

extension CancellationTests {
    @Test(
        "a timeout ends the run at its deadline though the step ignores cancellation; its late result is never applied")
    func timeoutAbandonsStep() async throws {
        let journal = Journal()
        let (entered, release, returned) = (Gate(), Gate(), Gate())
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                // Wall clock (the phased steps take no clock), but nothing has to beat it: the
                // step is released only after the run ended, so load can make it late, never wrong.
                legacyStep(
                    timeout: .milliseconds(300), entered: entered, release: release, returned: returned,
                    journal: journal)
            ],
            postSyncSteps: [logStep("post")]
        )
        let events = initializer.events()
        var failed: InitializationFailure<TestProcess>?
        do {
            _ = try await initializer.run()
        } catch let failure as InitializationFailure<TestProcess> {
            failed = failure
        }
        await journal.record("run ended")
        let failure = try #require(failed, "the run succeeded")
        let timeout = try #require(failure.error as? InitializationStepTimeoutError)
        #expect(timeout.stepTitle == "legacy")
        #expect(timeout.timeout == .milliseconds(300))
        #expect(failure.stepTimings.map(\.outcome) == [.failed])

        await release.open()
        await returned.wait()
        await drainMainActor()
        #expect(await journal.entries == ["run ended", "step returned"])
        #expect(failure.process.database == nil)
        #expect(failure.process.log.isEmpty)
        var rendered: [String] = []
        for await event in events {
            if case .failed(let step, _, _) = event { rendered.append("failed \(step.title)") }
            if case .stepFinished(let timing) = event { rendered.append("finished \(timing.step.title)") }
        }
        #expect(rendered == ["failed legacy"])
    }

    @Test("cancelling a run ends it at once though its step ignores cancellation; its late result is never applied")
    func cancellationAbandonsStep() async throws {
        let journal = Journal()
        let (entered, release, returned) = (Gate(), Gate(), Gate())
        let (failure, entries) = try await cancelledRun(
            asyncSteps: [legacyStep(entered: entered, release: release, returned: returned, journal: journal)],
            postSyncSteps: [logStep("post")],
            cancel: { task in
                await entered.wait()
                task.cancel()
            }
        )
        await journal.record("run ended")
        let cancelled = try #require(failure, "the cancelled run succeeded")
        #expect(cancelled.isCancellation)
        #expect(cancelled.failedStep.title == "legacy")
        #expect(entries == ["error true"])

        await release.open()
        await returned.wait()
        await drainMainActor()
        #expect(await journal.entries == ["run ended", "step returned"])
        #expect(cancelled.process.database == nil)
        #expect(cancelled.process.log.isEmpty)
    }

    @Test("a failing step ends the run without waiting for a sibling that ignores cancellation")
    func failureAbandonsSibling() async throws {
        let journal = Journal()
        let (entered, release, returned) = (Gate(), Gate(), Gate())
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                legacyStep(entered: entered, release: release, returned: returned, journal: journal),
                AsyncInitializationStep(title: "fails") { _ in
                    await entered.wait()
                    throw TestError(message: "boom")
                },
            ]
        )
        var failed: InitializationFailure<TestProcess>?
        do {
            _ = try await initializer.run()
        } catch let failure as InitializationFailure<TestProcess> {
            failed = failure
        }
        await journal.record("run ended")
        let failure = try #require(failed, "the run succeeded")
        #expect(failure.failedStep.title == "fails")
        let outcomes = Dictionary(uniqueKeysWithValues: failure.stepTimings.map { ($0.step.title, $0.outcome) })
        #expect(outcomes == ["fails": .failed, "legacy": .cancelled])

        await release.open()
        await returned.wait()
        await drainMainActor()
        #expect(await journal.entries == ["run ended", "step returned"])
        #expect(failure.process.database == nil)
    }
}

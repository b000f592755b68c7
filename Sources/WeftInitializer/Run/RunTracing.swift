import Instrumentation
import Tracing
import WeftPrimitives

/// The span tree of one run: a span for the run, one per phase, one per step (with an event
/// per retry).
///
/// Spans go to the tracer the initializer was given, else to the one the app bootstrapped
/// (`InstrumentationSystem.tracer`, a no-op unless the app chose one). A step's body runs with
/// its span's context as the task's `InstrumentationContext`, so spans it starts itself — an
/// HTTP client's request, say — are children of the step.
///
/// With the no-op tracer (the default) nothing is done at all: no span, no context bound.
@MainActor
final class RunTracing {
    private let tracer: any Tracer
    private let run: (any Span)?
    /// Whether spans are made; checked before a step's description is looked up.
    let isTracing: Bool
    private var phases: [InitializationPhase: any Span] = [:]
    private var steps: [Int: any Span] = [:]
    /// The run's steps, by position.
    private var plan: [InitializationStepInfo] = []

    init(tracer: (any Tracer)?, isRepeat: Bool, stepCount: Int) {
        let tracer = tracer ?? InstrumentationSystem.tracer
        self.tracer = tracer
        guard !(tracer is NoOpTracer) else {
            run = nil
            isTracing = false
            return
        }
        isTracing = true
        let run = tracer.startSpan("weft.initialize", context: InstrumentationContext.current ?? .topLevel)
        run.attributes["weft.initialize.repeat"] = isRepeat
        run.attributes["weft.initialize.steps"] = stepCount
        self.run = run
    }

    /// The observer to tell of the run's moments: `nil` when nothing is traced.
    var observer: RunTracing? { isTracing ? self : nil }

    /// The context the body of the step at `position` runs in: its span's; `nil` when nothing
    /// is traced.
    func context(of position: Int) -> InstrumentationContext? {
        guard isTracing, let run else { return nil }
        return steps[position]?.context ?? run.context
    }

    /// Starts the span of an on-demand step's run, in the context of the request that started it
    /// (the span that needed the value), linked to the run's span; `nil` when nothing traces.
    func onDemandSpan(_ step: InitializationStepInfo) -> (any Span)? {
        guard let run else { return nil }
        let span = tracer.startSpan(step.title, context: InstrumentationContext.current ?? .topLevel)
        span.addLink(SpanLink(context: run.context, attributes: [:]))
        span.attributes["weft.step.title"] = step.title
        span.attributes["weft.step.id"] = step.id
        span.attributes["weft.step.type"] = step.type == .repeatable ? "repeatable" : "simple"
        span.attributes["weft.step.schedule"] = step.isOnDemand ? "on demand" : step.schedule.description
        return span
    }

    /// Marks on a step's span that its attempt `attempt` starts after `delay`, because of `error`.
    nonisolated static func retrying(_ span: any Span, attempt: Int, delay: Duration, error: any Error) {
        span.addEvent(
            SpanEvent(
                name: "weft.step.retry",
                attributes: [
                    "weft.step.attempt": .int64(Int64(attempt)),
                    "weft.step.retry_delay_ms": .int64(delay.roundedMilliseconds),
                    "weft.step.error": .string("\(error)"),
                ]))
        span.attributes["weft.step.attempts"] = attempt
    }
}

extension RunTracing: RunObserver {
    func started(_ plan: [InitializationStepInfo]) { self.plan = plan }

    func phaseStarted(_ phase: InitializationPhase) {
        guard let run else { return }
        let span = tracer.startSpan("weft.phase \(phase)", context: run.context)
        span.attributes["weft.phase"] = phase.description
        phases[phase] = span
    }

    func phaseEnded(_ timing: InitializationPhaseTiming) {
        phases.removeValue(forKey: timing.phase)?.end()
    }

    func stepStarted(_ position: Int) {
        guard let run else { return }
        let step = plan[position]
        let span = tracer.startSpan(step.title, context: phases[step.phase]?.context ?? run.context)
        span.attributes["weft.step.title"] = step.title
        span.attributes["weft.step.phase"] = step.phase.description
        span.attributes["weft.step.type"] = step.type == .repeatable ? "repeatable" : "simple"
        span.attributes["weft.step.id"] = step.id
        if step.isOptional { span.attributes["weft.step.optional"] = true }
        steps[step.position] = span
    }

    func stepRetrying(_ position: Int, attempt: Int, delay: Duration, error: any Error) {
        guard let span = steps[position] else { return }
        Self.retrying(span, attempt: attempt, delay: delay, error: error)
    }

    func stepEnded(_ end: StepEnd) {
        guard run != nil, let span = steps.removeValue(forKey: end.position) else { return }
        span.attributes["weft.step.outcome"] = end.outcome.description
        if end.outcome == .failed, let error = end.error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: "\(error)"))
        }
        span.end()
    }

    /// Marks the moment the run is ready with an event on the run's span, and its time as an
    /// attribute (`weft.initialize.ready_ms`).
    func ready(at offset: Duration) {
        guard let run else { return }
        run.addEvent(SpanEvent(name: "weft.ready"))
        run.attributes["weft.initialize.ready_ms"] = Int(offset.saturatingNanoseconds / 1_000_000)
    }

    /// Ends the run (and any phase still open) as succeeded, failed in its step, or cancelled
    /// (in its step, which did not fail).
    func ended(_ end: RunEnd) {
        guard let run else { return }
        for (_, span) in phases { span.end() }
        phases = [:]
        if case .failed(_, let step, let error, let cancelled) = end {
            run.attributes["weft.initialize.outcome"] = cancelled ? "cancelled" : "failed"
            if !cancelled { run.attributes["weft.initialize.failed_step"] = step.title }
            run.recordError(error)
            run.setStatus(SpanStatus(code: .error, message: "\(error)"))
        } else {
            run.attributes["weft.initialize.outcome"] = "finished"
        }
        run.end()
    }
}

import Weft
import WeftApp

/// The full-screen app's composition root: what the screens need, and the screens' model,
/// main-actor state registered as such (`isolation: MainActor.shared`), so that resolving it
/// on the main actor makes it in place and nothing else can make it elsewhere.
///
/// The services a run needs live in each run's own container (``AppDependencies``); this one
/// lives as long as the app.
@MainActor
enum ScreenComposition {
    /// A container holding the app's model for `options`, with `logo` on its splash and
    /// `effects` for its work.
    static func container(options: AppOptions, logo: [String], effects: AppEffects) -> Container {
        let container = Container()
        container.diagnostics.logger = AppLog.silent  // the terminal is the screens'
        container.register(AppOptions.self, instance: options)
        container.register([String].self, name: "logo", instance: logo)
        container.register(AppEffects.self, instance: effects)
        container.register(AppModel.self, lifetime: .singleton, isolation: .shared) { resolver in
            AppModel(
                options: try resolver.resolve(AppOptions.self),
                logo: try resolver.resolve([String].self, name: "logo"),
                effects: try resolver.resolve(AppEffects.self))
        }
        return container
    }
}

import FactKit
import WeftInitializer
import WeftTerminal

/// Where the app is: initializing, showing a fact, or showing why initialization failed.
enum AppStage: Sendable {
    /// A run is in flight.
    case splash(SplashProgress)
    /// The last run succeeded.
    case main(MainState)
    /// The last run failed.
    case error(ErrorState)

    /// `splash`, `main` or `error`, for tests and logs.
    var name: String {
        switch self {
        case .splash: "splash"
        case .main: "main"
        case .error: "error"
        }
    }
}

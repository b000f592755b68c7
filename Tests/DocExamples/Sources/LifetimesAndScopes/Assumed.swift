// The article's own types, which it assumes rather than shows. `Database` is defined in main.swift.
import Weft

protocol Clock: Sendable {}
struct SystemClock: Clock {}

protocol Logger: Sendable {}
struct FeatureLogger: Logger {}

final class Session: Sendable {}
final class Player: Sendable {}
final class UnitOfWork: Sendable {}

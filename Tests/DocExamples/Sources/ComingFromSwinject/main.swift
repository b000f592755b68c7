// The Swift blocks of Sources/Weft/Weft.docc/ComingFromSwinject.md, run in order. The types they
// leave out are in Assumed.swift.
import Weft

// doc begins
let container = Container()
container.register(Parent.self, lifetime: .graph) { Parent() }
    .onCreated { r, parent in parent.child = try r.resolve(Child.self) }
container.register(Child.self, lifetime: .graph) { Child() }
    .onCreated { r, child in child.parent = try r.resolve(Parent.self) }
let parent = try container.require(Parent.self)
print(parent.child?.parent === parent)  // true
// doc ends

// doc begins
container.register((any API).self) { LiveAPI() }
container.register(ProfileModel.self, lifetime: .singleton, isolation: MainActor.shared) { r in
    ProfileModel(api: try r.resolve((any API).self))
}
let model = try container.require(ProfileModel.self)  // on the main actor
let same = try await container.resolveAsync(ProfileModel.self)  // from anywhere
print(model === same)  // true
// doc ends

// Off the main actor, with nothing cached, a synchronous resolve is an error, not a trap.
container.reset(ProfileModel.self)
let offMain = await requireOffMainActor(ProfileModel.self, from: container)
precondition(offMain?.code == .requiresIsolation, "\(String(describing: offMain))")

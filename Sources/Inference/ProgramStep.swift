/// One kernel call of a specialised program, with its views and packed
/// weights fixed. Each operation's file defines the steps it emits.
package protocol ProgramStep: Sendable {
    /// Steps that reuse each weight across the images of a chunk (dense
    /// layers) run on the whole chunk; the steps before the first of them run
    /// image by image, so each image's activations stay in cache.
    var reusesWeightsAcrossImages: Bool { get }
    /// Runs images `image..<image + count` of the workspace's chunk.
    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32)
}

extension ProgramStep {
    var reusesWeightsAcrossImages: Bool { false }
}

/// What a lowered kernel needs to emit its step: where each value lives, the
/// shapes, the weight arena to pack into, and the FLOP count to add to.
package struct Emission {
    var arena: WeightArena
    private(set) var flops = 0
    let shapes: [String: SampleShape]
    private let slots: (String) -> Program.Slot

    init(arena: WeightArena, shapes: [String: SampleShape], slots: @escaping (String) -> Program.Slot) {
        self.arena = arena
        self.shapes = shapes
        self.slots = slots
    }

    func slot(_ value: String) -> Program.Slot { slots(value) }
    func shape(_ value: String) -> SampleShape { shapes[value]! }

    /// Floating-point operations per sample (a multiply-add counts two).
    mutating func count(flops: Int) { self.flops += flops }
}

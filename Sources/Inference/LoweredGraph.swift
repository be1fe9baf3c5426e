/// A kernel call to be, after lowering and before memory is planned: its
/// weights still plain arrays, fusions still open. Each operation's file
/// defines the kernels it lowers to; the defaults here refuse every fusion.
package protocol LoweredKernel: Sendable {
    /// One line for tests and diagnostics, e.g. `conv2d 3x3 s1 p1 +relu +maxpool2`.
    var summary: String { get }
    /// Takes the ReLU that follows, applying it to its own output.
    mutating func fuseReLU() -> Bool
    /// Takes a per-channel `y = x * scale + shift` that follows, folded into its weights.
    mutating func foldAffine(scale: [Float], shift: [Float]) -> Bool
    /// Takes a pooling that follows with window = stride = `size` and no
    /// padding; `input` is the shape the pooling reads (this kernel's output).
    mutating func fusePool(max: Bool, size: Int, input: SampleShape) -> Bool
    /// The zero border it needs around its first input (a padded convolution's padding).
    var inputBorder: Int { get }
    /// Whether its output may live in its input's storage (a flatten).
    func sharesStorage(withInput input: SampleShape) -> StorageSharing
    /// Whether it can read a flattened image in channels-last order.
    var readsFlattenChannelsLast: Bool { get }
    /// From now on it reads a flatten of `image` in channels-last order.
    mutating func readFlattenChannelsLast(of image: SampleShape)
    /// Packs its weights, counts its FLOPs and makes the step that calls its kernel.
    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep
}

/// How a kernel's output may share its input's storage.
package enum StorageSharing {
    case never
    /// Same values in the same order.
    case always
    /// Only when every reader takes channels-last order (`readsFlattenChannelsLast`).
    case ifReadersTakeChannelsLast
}

extension LoweredKernel {
    mutating func fuseReLU() -> Bool { false }
    mutating func foldAffine(scale: [Float], shift: [Float]) -> Bool { false }
    mutating func fusePool(max: Bool, size: Int, input: SampleShape) -> Bool { false }
    var inputBorder: Int { 0 }
    func sharesStorage(withInput input: SampleShape) -> StorageSharing { .never }
    var readsFlattenChannelsLast: Bool { false }
    mutating func readFlattenChannelsLast(of image: SampleShape) {}
}

/// The lowered graph being built: kernels in execution order, each writing
/// one value, and what is needed to decide fusions.
package struct LoweredGraph {
    package struct Node {
        package var kernel: any LoweredKernel
        package var inputs: [String]
        package var output: String
        package var shape: SampleShape
    }

    package private(set) var nodes: [Node] = []
    /// The file's tensors, for lowerings that read weights.
    let tensors: [String: NDArray]
    /// Shapes of the function's inputs and of every node's output.
    package private(set) var shapes: [String: SampleShape]
    /// The function's outputs, identities resolved.
    package let outputs: [String]
    /// How many times each value is read (an output counts as a read).
    private let uses: [String: Int]
    private var producer: [String: Int] = [:]

    init(tensors: [String: NDArray], inputs: [(name: String, shape: SampleShape)], outputs: [String], uses: [String: Int]) {
        self.tensors = tensors
        self.outputs = outputs
        self.uses = uses
        shapes = Dictionary(uniqueKeysWithValues: inputs.map { ($0.name, $0.shape) })
    }

    /// The layer as a kernel of its own.
    mutating func append(_ kernel: any LoweredKernel, for layer: LayerToLower) {
        producer[layer.output] = nodes.count
        shapes[layer.output] = layer.shape
        nodes.append(Node(kernel: kernel, inputs: layer.inputs, output: layer.output, shape: layer.shape))
    }

    /// Offers the kernel that produced the layer's first input a fusion with
    /// the layer; `body` tries it. Offered only when that value feeds nothing
    /// else and is not an output, so rewriting the kernel changes no other
    /// reader. On success the kernel writes the layer's output instead.
    mutating func fuse(_ layer: LayerToLower, _ body: (inout any LoweredKernel) -> Bool) -> Bool {
        let value = layer.inputs[0]
        guard let index = producer[value], uses[value] == 1, !outputs.contains(value),
              body(&nodes[index].kernel) else { return false }
        producer[value] = nil
        producer[layer.output] = index
        shapes[layer.output] = layer.shape
        nodes[index].output = layer.output
        nodes[index].shape = layer.shape
        return true
    }

    mutating func readFlattenChannelsLast(node index: Int, of image: SampleShape) {
        nodes[index].kernel.readFlattenChannelsLast(of: image)
    }
}

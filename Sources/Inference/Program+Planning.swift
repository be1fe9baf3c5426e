/// Specialisation: from a checked graph to steps, slots and packed weights,
/// in five passes, each a function of its own:
///
/// 1. `identityAliases`: layers that are the identity at inference (dropout)
///    become other names for their inputs.
/// 2. `lower`: each layer's operation adds a kernel or fuses into the kernel
///    before it (batch norm folds into a convolution or dense layer, ReLU and
///    pooling fuse), when that kernel's output feeds nothing else.
/// 3. `layOut`: values are channels-last; a value read by a padded
///    convolution keeps a zero border as wide as the widest padding; a
///    flatten shares its input's storage when the order allows it.
/// 4. `planMemory`: each value gets a slot, reused once its last reader ran.
/// 5. `emit`: each kernel packs its weights and makes its step.
extension Program {
    /// Images per pass: enough for the dense layers to reuse each weight
    /// several times, few enough that a pass's scratch stays small.
    static let defaultChunk = 16

    convenience init(checked function: CheckedFunction, tensors: [String: NDArray], kernels: KernelChoice,
                     chunk: Int = Program.defaultChunk) {
        let aliases = Self.identityAliases(function)
        var graph = Self.lower(function, aliases: aliases, tensors: tensors)
        let layout = Self.layOut(&graph)
        let memory = Self.planMemory(graph, layout, inputs: function.inputs.map(\.name), chunk: chunk)
        let slot = { (value: String) in memory.slot(value, layout: layout, shape: graph.shapes[value]!) }
        let (steps, flops, weights) = Self.emit(graph, layout, slot: slot, kernels: kernels)
        self.init(inputs: function.inputs, outputs: function.outputs,
                  inputSlots: function.inputs.map { slot($0.name) }, outputSlots: graph.outputs.map(slot),
                  steps: steps, chunk: chunk, workspaceFloats: memory.totalFloats, flopsPerSample: flops,
                  weights: weights)
    }

    /// Names that stand for another value: the outputs of identity layers.
    package struct Aliases {
        package var target: [String: String] = [:]

        package func resolve(_ name: String) -> String {
            var name = name
            while let next = target[name] { name = next }
            return name
        }
    }

    /// Pass 1: the identities at inference become aliases of their inputs.
    package static func identityAliases(_ function: CheckedFunction) -> Aliases {
        var aliases = Aliases()
        for checked in function.layers where checked.layer.operation.definition.isIdentityAtInference {
            aliases.target[checked.layer.output] = aliases.resolve(checked.layer.inputs[0])
        }
        return aliases
    }

    /// Pass 2: every other layer lowers through its operation's definition.
    package static func lower(_ function: CheckedFunction, aliases: Aliases, tensors: [String: NDArray]) -> LoweredGraph {
        let layers = function.layers.filter { !$0.layer.operation.definition.isIdentityAtInference }
        let outputs = function.outputs.map { aliases.resolve($0.name) }
        var uses: [String: Int] = [:]
        for checked in layers {
            for input in checked.layer.inputs { uses[aliases.resolve(input), default: 0] += 1 }
        }
        for value in outputs { uses[value, default: 0] += 1 }
        var graph = LoweredGraph(tensors: tensors, inputs: function.inputs, outputs: outputs, uses: uses)
        for checked in layers {
            let layer = LayerToLower(inputs: checked.layer.inputs.map(aliases.resolve), output: checked.layer.output,
                                     inputShapes: checked.inputShapes, shape: checked.shape)
            checked.layer.operation.definition.lower(layer, into: &graph)
        }
        return graph
    }

    /// Where values live relative to each other: borders, and shared storage.
    package struct Layout {
        /// Zero border around a value, in pixels.
        package var border: [String: Int] = [:]
        /// A value that lives in another's storage (a free flatten) -> that value.
        package var sharesStorage: [String: String] = [:]

        package func storage(_ value: String) -> String { sharesStorage[value].map(storage) ?? value }
    }

    /// Pass 3: borders for padded readers, and flattens that cost nothing.
    package static func layOut(_ graph: inout LoweredGraph) -> Layout {
        var layout = Layout()
        var readers: [String: [Int]] = [:]
        for (index, node) in graph.nodes.enumerated() {
            for input in node.inputs { readers[input, default: []].append(index) }
            let border = node.kernel.inputBorder
            if border > 0 { layout.border[node.inputs[0]] = max(layout.border[node.inputs[0]] ?? 0, border) }
        }
        for node in graph.nodes {
            let input = node.inputs[0]
            // A value with a border is laid out differently from one without.
            guard (layout.border[input] ?? 0) == 0 else { continue }
            switch node.kernel.sharesStorage(withInput: graph.shapes[input]!) {
            case .never:
                continue
            case .always:
                layout.sharesStorage[node.output] = input
            case .ifReadersTakeChannelsLast:
                let nodeReaders = readers[node.output] ?? []
                guard !graph.outputs.contains(node.output),
                      nodeReaders.allSatisfy({ graph.nodes[$0].kernel.readsFlattenChannelsLast }) else { continue }
                layout.sharesStorage[node.output] = input
                for reader in nodeReaders { graph.readFlattenChannelsLast(node: reader, of: graph.shapes[input]!) }
            }
        }
        return layout
    }

    /// Slots of the workspace: each storage's slot, and each slot's offset and size.
    package struct MemoryPlan {
        package var slotOf: [String: Int] = [:]
        /// Floats per image of each slot, a multiple of 16.
        package var slotSizes: [Int] = []
        package var slotOffsets: [Int] = []
        package var totalFloats = 0

        package func slot(_ value: String, layout: Layout, shape: SampleShape) -> Slot {
            let home = layout.storage(value)
            let offset = slotOffsets[slotOf[home]!]
            let stride = slotSizes[slotOf[home]!]
            switch shape {
            case .image(let c, let h, let w):
                return Slot(offset: offset, imageStride: stride, height: Int32(h), width: Int32(w),
                            channels: Int32(c), border: Int32(layout.border[home] ?? 0))
            case .features(let f):
                return Slot(offset: offset, imageStride: stride, height: 1, width: 1, channels: Int32(f), border: 0)
            }
        }
    }

    /// Pass 4: each storage gets a slot when produced; a slot is free for
    /// reuse after its value's last reader (outputs live to the end).
    package static func planMemory(_ graph: LoweredGraph, _ layout: Layout, inputs: [String], chunk: Int) -> MemoryPlan {
        let nodes = graph.nodes
        var lastUse: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            for input in node.inputs { lastUse[layout.storage(input)] = max(lastUse[layout.storage(input)] ?? -1, index) }
        }
        for value in graph.outputs { lastUse[layout.storage(value)] = nodes.count }
        func floatsPerImage(_ value: String) -> Int {
            let b = layout.border[value] ?? 0
            let size: Int
            switch graph.shapes[value]! {
            case .image(let c, let h, let w): size = (h + 2 * b) * (w + 2 * b) * c
            case .features(let f): size = f
            }
            return (size + 15) / 16 * 16
        }
        var plan = MemoryPlan()
        var slotFreeAfter: [Int] = []
        func place(_ value: String, producedAt step: Int) {
            let size = floatsPerImage(value)
            let reusable = plan.slotSizes.indices.filter { slotFreeAfter[$0] < step }
            // The smallest free slot that fits, else the largest free one grown, else a new one.
            let slot = reusable.filter { plan.slotSizes[$0] >= size }.min { plan.slotSizes[$0] < plan.slotSizes[$1] }
                ?? reusable.max { plan.slotSizes[$0] < plan.slotSizes[$1] }
            if let slot {
                plan.slotSizes[slot] = max(plan.slotSizes[slot], size)
                slotFreeAfter[slot] = lastUse[value] ?? step
                plan.slotOf[value] = slot
            } else {
                plan.slotOf[value] = plan.slotSizes.count
                plan.slotSizes.append(size)
                slotFreeAfter.append(lastUse[value] ?? step)
            }
        }
        for input in inputs { place(input, producedAt: -1) }
        for (index, node) in nodes.enumerated() where layout.sharesStorage[node.output] == nil {
            place(node.output, producedAt: index)
        }
        for size in plan.slotSizes {
            plan.slotOffsets.append(plan.totalFloats)
            plan.totalFloats += size * chunk
        }
        return plan
    }

    /// Pass 5: the steps in order, with their weights packed into one arena.
    package static func emit(_ graph: LoweredGraph, _ layout: Layout, slot: @escaping (String) -> Slot,
                     kernels: KernelChoice) -> (steps: [any ProgramStep], flops: Int, weights: [Float]) {
        var emission = Emission(arena: WeightArena(portable: kernels == .portable), shapes: graph.shapes, slots: slot)
        var steps: [any ProgramStep] = []
        for node in graph.nodes where layout.sharesStorage[node.output] == nil {
            steps.append(node.kernel.emit(node, &emission))
        }
        return (steps, emission.flops, emission.arena.floats)
    }
}

import Inference
import Testing

/// The five passes of specialisation (Program+Planning.swift), each on its
/// own, on the reference CNN: what they decide, not only that the result runs.
@Suite struct ProgramPassesTests {
    static func checked(_ file: ModelFile) throws -> CheckedFunction {
        try CheckedFunction(name: "main", description: file.description.functions["main"]!, tensors: file.tensors)
    }

    static func lowered(_ file: ModelFile) throws -> LoweredGraph {
        let function = try checked(file)
        return Program.lower(function, aliases: Program.identityAliases(function), tensors: file.tensors)
    }

    @Test func identitiesBecomeAliasesOfTheirInputs() throws {
        let aliases = Program.identityAliases(try Self.checked(referenceModel()))
        #expect(aliases.resolve("dropped") == "fc1.relu")
        #expect(aliases.resolve("fc1.relu") == "fc1.relu")
        #expect(aliases.target.count == 1)
    }

    @Test func loweringFusesIntoKernelsWhoseOutputNothingElseReads() throws {
        let graph = try Self.lowered(referenceModel())
        #expect(graph.nodes.map(\.kernel.summary) == [
            "conv2d 3x3 s1 p1 +relu", "conv2d 3x3 s1 p1 +relu +maxpool2",
            "conv2d 3x3 s1 p1 +relu", "conv2d 3x3 s1 p1 +relu +maxpool2",
            "flatten", "dense +relu", "dense",
        ])
        #expect(graph.nodes.map(\.output) == ["conv1.relu", "pool1", "conv3.relu", "pool3", "flat", "fc1.relu", "logits"])
        #expect(graph.nodes[1].shape == .image(channels: 32, height: 14, width: 14))

        // A second reader of conv1's output keeps its batch norm and ReLU apart.
        var file = referenceModel()
        file.description.functions["main"]!.outputs.append(TensorSignature(name: "conv1.out", shape: [-1, 32, 28, 28]))
        let unfused = try Self.lowered(file)
        #expect(unfused.nodes.prefix(2).map(\.kernel.summary) == ["conv2d 3x3 s1 p1", "affine +relu"])
    }

    @Test func layoutBordersPaddedInputsAndMakesFlattenFree() throws {
        var graph = try Self.lowered(referenceModel())
        let layout = Program.layOut(&graph)
        #expect(layout.border == ["image": 1, "conv1.relu": 1, "pool1": 1, "conv3.relu": 1])
        #expect(layout.sharesStorage == ["flat": "pool3"])
        #expect(layout.storage("flat") == "pool3")
        #expect(graph.nodes[5].kernel.summary == "dense +relu (channels-last columns)")
    }

    @Test func memoryIsReusedOnlyAfterTheLastReader() throws {
        var graph = try Self.lowered(referenceModel())
        let layout = Program.layOut(&graph)
        let plan = Program.planMemory(graph, layout, inputs: ["image"], chunk: 3)
        // Each storage's life: from the step that writes it to its last reader.
        var life: [String: ClosedRange<Int>] = ["image": -1...0]
        for (index, node) in graph.nodes.enumerated() where layout.sharesStorage[node.output] == nil {
            let last = graph.nodes.indices.last { graph.nodes[$0].inputs.map(layout.storage).contains(node.output) }
            life[node.output] = index...(graph.outputs.contains(node.output) ? graph.nodes.count : last ?? index)
        }
        #expect(Set(plan.slotOf.keys) == Set(life.keys))
        for (a, lifeA) in life {
            for (b, lifeB) in life where a < b && plan.slotOf[a] == plan.slotOf[b] {
                #expect(!lifeA.overlaps(lifeB), "\(a) and \(b) share a slot while both are alive")
            }
        }
        #expect(plan.slotSizes.count < life.count, "some slot is reused")
        #expect(plan.slotSizes.allSatisfy { $0 % 16 == 0 })
        #expect(plan.totalFloats == 3 * plan.slotSizes.reduce(0, +))
        #expect(plan.slotOffsets == plan.slotSizes.indices.map { 3 * plan.slotSizes[..<$0].reduce(0, +) })
    }

    @Test func emitPacksEveryKernelAndCountsItsFLOPs() throws {
        let file = referenceModel()
        var graph = try Self.lowered(file)
        let layout = Program.layOut(&graph)
        let plan = Program.planMemory(graph, layout, inputs: ["image"], chunk: 1)
        let (steps, flops, weights) = Program.emit(graph, layout, slot: {
            plan.slot($0, layout: layout, shape: graph.shapes[$0]!)
        }, kernels: .portable)
        #expect(steps.count == 6, "the flatten costs no step")
        #expect(steps.map(\.reusesWeightsAcrossImages) == [false, false, false, false, true, true])
        #expect(flops == 2 * (32 * 9 * 784 + 32 * 288 * 784 + 64 * 288 * 196 + 64 * 576 * 196 + 128 * 3136 + 10 * 128))
        let weightCount = [32 * 9, 32 * 288, 64 * 288, 64 * 576, 128 * 3136, 10 * 128].reduce(0, +)
        #expect(weights.count >= weightCount)
    }
}

import Foundation
import Inference
import Testing

@Suite struct CompiledModelTests {
    @Test func exposesWhatCallersNeed() throws {
        let file = referenceModel()
        let model = try CompiledModel(file: file)
        #expect(model.name == "test")
        #expect(model.version == "1")
        #expect(model.labels.count == 10)
        #expect(model.functionNames == ["main"])
        // conv: 32*9+32 + 32*288+32 + 64*288+64 + 64*576+64, four batch norms of 4*C,
        // dense: 128*3136+128 + 10*128+10.
        let convolutions = (32 * 9 + 32) + (32 * 288 + 32) + (64 * 288 + 64) + (64 * 576 + 64)
        let norms = 4 * (32 + 32 + 64 + 64)
        #expect(model.parameterCount == convolutions + norms + 128 * 3136 + 128 + 10 * 128 + 10)
        #expect(file.fingerprint.count == 16)
        #expect(referenceModel().fingerprint == file.fingerprint)
        #expect(referenceModel(seed: 2).fingerprint != file.fingerprint)
        let main = try model.function(named: "main")
        #expect(main.inputs == [TensorSignature(name: "image", shape: [-1, 1, 28, 28])])
        #expect(main.outputs == [TensorSignature(name: "logits", shape: [-1, 10])])
        #expect(main.flopsPerSample == 2 * (32 * 9 * 784 + 32 * 288 * 784 + 64 * 288 * 196 + 64 * 576 * 196 + 128 * 3136 + 10 * 128))
        #expect(throws: ModelError.noSuchFunction("other")) { try model.function(named: "other") }
    }

    @Test func foldedBatchNormEqualsUnfolded() throws {
        // Reading the convolution's output a second time keeps the runtime from
        // folding the batch norm into it; both graphs must agree.
        let folded = referenceModel()
        var unfolded = folded
        var function = unfolded.description.functions["main"]!
        function.outputs.append(TensorSignature(name: "conv1.out", shape: [-1, 32, 28, 28]))
        function.outputs.append(TensorSignature(name: "fc1", shape: [-1, 128]))
        unfolded.description.functions["main"] = function
        var random = Random(seed: 11)
        let image = NDArray(shape: [5, 1, 28, 28], scalars: (0..<5 * 784).map { _ in abs(random.float()) })
        let a = try CompiledModel(file: folded).function(named: "main").run(inputs: ["image": image])
        let b = try CompiledModel(file: unfolded, contract: nil).function(named: "main").run(inputs: ["image": image])
        expectClose(a["logits"], b["logits"]!)
        #expect(a["logits"] != b["logits"], "the two graphs should have taken different paths")
        let reference = Reference.run(unfolded, inputs: ["image": image])
        expectClose(b["conv1.out"], reference["conv1.out"]!)
        expectClose(b["logits"], reference["logits"]!)
    }

    @Test func batchOfNEqualsNSingleRuns() throws {
        let main = try CompiledModel(file: referenceModel()).function(named: "main")
        var random = Random(seed: 12)
        let n = 19
        let images = (0..<n * 784).map { _ in abs(random.float()) }
        var batch = [Float](repeating: 0, count: n * 10)
        try images.withUnsafeBufferPointer { input in
            try batch.withUnsafeMutableBufferPointer { try main.run(input: input, count: n, output: $0) }
        }
        for i in 0..<n {
            let single = try main.run(inputs: ["image": NDArray(shape: [1, 1, 28, 28], scalars: Array(images[i * 784..<(i + 1) * 784]))])
            #expect(single["logits"]!.scalars == Array(batch[i * 10..<(i + 1) * 10]), "image \(i)")
        }
    }

    @Test func eightThreadsAgreeWithOne() async throws {
        let main = try CompiledModel(file: referenceModel()).function(named: "main")
        var random = Random(seed: 13)
        let batches = (0..<8).map { t in NDArray(shape: [t + 1, 1, 28, 28], scalars: (0..<(t + 1) * 784).map { _ in abs(random.float()) }) }
        let expected = try batches.map { try main.run(inputs: ["image": $0])["logits"]! }
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for t in 0..<8 {
                group.addTask {
                    var same = true
                    for _ in 0..<20 {
                        let batch = batches[t]
                        var output = [Float](repeating: 0, count: batch.shape[0] * 10)
                        try batch.scalars.withUnsafeBufferPointer { input in
                            try output.withUnsafeMutableBufferPointer { try main.run(input: input, count: batch.shape[0], output: $0) }
                        }
                        same = same && output == expected[t].scalars
                    }
                    return (t, same)
                }
            }
            var all: [Int: Bool] = [:]
            for try await (t, same) in group { all[t] = same }
            return all
        }
        #expect(results.count == 8)
        #expect(results.values.allSatisfy { $0 })
        // Plain threads too, not only the cooperative pool.
        let failures = Failures()
        let threads = (0..<8).map { t in
            Thread {
                for _ in 0..<10 {
                    let result = try? main.run(inputs: ["image": batches[t]])["logits"]
                    if result != expected[t] { failures.add() }
                }
            }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) { usleep(1000) }
        #expect(failures.count == 0)
    }

    @Test func emptyBatchGivesEmptyOutput() throws {
        let main = try CompiledModel(file: referenceModel()).function(named: "main")
        let result = try main.run(inputs: ["image": NDArray(shape: [0, 1, 28, 28])])
        #expect(result["logits"]?.shape == [0, 10])
    }

    @Test func wrongInputsAreRefused() throws {
        let main = try CompiledModel(file: referenceModel()).function(named: "main")
        #expect(throws: ModelError.badInput("input 'image' has shape [1, 28, 28], expected [-1, 1, 28, 28]")) {
            try main.run(inputs: ["image": NDArray(shape: [1, 28, 28])])
        }
        #expect(throws: ModelError.self) { try main.run(inputs: ["image": NDArray(shape: [2, 3, 28, 28])]) }
        #expect(throws: ModelError.self) { try main.run(inputs: [:]) }
        #expect(throws: ModelError.self) {
            try main.run(inputs: ["image": NDArray(shape: [1, 1, 28, 28]), "extra": NDArray(shape: [1])])
        }
        let input = [Float](repeating: 0, count: 784 * 2)
        var output = [Float](repeating: 0, count: 10)
        #expect(throws: ModelError.self) {
            try input.withUnsafeBufferPointer { i in
                try output.withUnsafeMutableBufferPointer { try main.run(input: i, count: 2, output: $0) }
            }
        }
    }
}

/// A counter threads may bump.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}

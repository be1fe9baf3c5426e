import Foundation

/// Inference-mode passes of a network during and after training: the
/// workers take chunks of the examples in turn.
extension Trainer {
    /// Logits `[count, classes]` of `count` examples, `fill(i, into)` writing
    /// example i's input into a worker's buffer.
    static func logits(_ network: Network, count: Int, workers: [NetworkWorker],
                       fill: @escaping @Sendable (Int, UnsafeMutablePointer<Float>) -> Void) -> [Float] {
        guard count > 0 else { return [] }
        let classes = network.outputCount
        let inputSize = network.architecture.input.count
        var logits = [Float](repeating: 0, count: count * classes)
        let capacity = workers[0].workspace.capacity
        let chunks = (count + capacity - 1) / capacity
        network.parameters.withUnsafeBufferPointer { parameters in
            network.statistics.withUnsafeBufferPointer { statistics in
                logits.withUnsafeMutableBufferPointer { output in
                    let shared = SharedPointers(parameters: parameters.baseAddress!, statistics: statistics.baseAddress!,
                                                output: output.baseAddress!)
                    DispatchQueue.concurrentPerform(iterations: workers.count) { w in
                        let worker = workers[w]
                        var unused = SeededGenerator(seed: 0)
                        for chunk in stride(from: w, to: chunks, by: workers.count) {
                            let first = chunk * capacity
                            let n = min(capacity, count - first)
                            for i in 0..<n { fill(first + i, worker.images + i * inputSize) }
                            worker.workspace.forward(worker.images, count: n, parameters: shared.parameters,
                                                     statistics: shared.statistics, training: false, generator: &unused)
                            (shared.output + first * classes).update(from: worker.workspace.logits, count: n * classes)
                        }
                    }
                }
            }
        }
        return logits
    }

    /// Argmax predictions on Fashion-MNIST images at `indices` (the contract's byte / 255).
    static func predictions(_ network: Network, fashion: FashionMNIST, indices: [Int], workers: [NetworkWorker]) -> [Int] {
        let logits = logits(network, count: indices.count, workers: workers) { i, destination in
            fashion.pixels.withUnsafeBufferPointer { source in
                Augmentation.convert(source.baseAddress! + indices[i] * FashionMNIST.pixelsPerImage, into: destination)
            }
        }
        return Self.argmax(logits, classes: network.outputCount)
    }

    static func logits(_ network: Network, photos: LabelledTensors, workers: [NetworkWorker]) -> [Float] {
        logits(network, count: photos.count, workers: workers) { i, destination in
            photos.values.withUnsafeBufferPointer { source in
                destination.update(from: source.baseAddress! + i * LabelledTensors.valuesPerExample,
                                   count: LabelledTensors.valuesPerExample)
            }
        }
    }

    /// Inference-mode logits of tensors given one after another (784 values
    /// each), `[count, classes]`, on `threads` threads.
    public static func logits(_ network: Network, tensors values: [Float], threads: Int = 2) -> [Float] {
        let size = LabelledTensors.valuesPerExample
        precondition(values.count % size == 0, "whole 28x28 tensors")
        let workers = (0..<max(threads, 1)).map { _ in NetworkWorker(plan: network.plan, capacity: 64) }
        return logits(network, count: values.count / size, workers: workers) { i, destination in
            values.withUnsafeBufferPointer { source in
                destination.update(from: source.baseAddress! + i * size, count: size)
            }
        }
    }

    /// Inference-mode logits of every photo tensor, `[count, classes]`, on `threads` threads.
    public static func logits(_ network: Network, photos: LabelledTensors, threads: Int = 2) -> [Float] {
        let workers = (0..<max(threads, 1)).map { _ in NetworkWorker(plan: network.plan, capacity: 64) }
        return logits(network, photos: photos, workers: workers)
    }

    /// The label (argmax) of each row of `logits`.
    public static func argmax(_ logits: [Float], classes: Int) -> [Int] {
        (0..<logits.count / classes).map { i in
            var best = 0
            for k in 1..<classes where logits[i * classes + k] > logits[i * classes + best] { best = k }
            return best
        }
    }

    /// The share of examples whose argmax is one of their accepted labels.
    public static func accuracy(_ logits: [Float], of photos: LabelledTensors) -> Double {
        guard !photos.isEmpty else { return .nan }
        let predicted = argmax(logits, classes: logits.count / photos.count)
        let right = predicted.enumerated().filter { photos.isAccepted($0.element, at: $0.offset) }.count
        return Double(right) / Double(photos.count)
    }
}

import Inference

extension Evaluation {
    /// Classifies the first `limit` images of `data` (all by default) in
    /// batches: `classify` gets `count` images back to back as the contract's
    /// tensors (`[count, 1, 28, 28]`, byte / 255) and returns a label index
    /// for each.
    public static func run<E: Error>(on data: FashionMNIST, labels: [String], limit: Int? = nil, batchSize: Int = 500,
                                     classify: (UnsafeBufferPointer<Float>, Int) throws(E) -> [Int]) throws(E) -> Evaluation {
        let total = min(limit ?? data.count, data.count)
        let pixels = FashionMNIST.pixelsPerImage
        var batch = [Float](repeating: 0, count: batchSize * pixels)
        var predicted: [Int] = []
        predicted.reserveCapacity(total)
        var first = 0
        while first < total {
            let count = min(batchSize, total - first)
            data.pixels.withUnsafeBufferPointer { source in
                batch.withUnsafeMutableBufferPointer { destination in
                    for i in 0..<count {
                        Augmentation.convert(source.baseAddress! + (first + i) * pixels,
                                             into: destination.baseAddress! + i * pixels)
                    }
                }
            }
            let labels = try batch.withUnsafeBufferPointer { buffer throws(E) in
                try classify(UnsafeBufferPointer(rebasing: buffer[0..<count * pixels]), count)
            }
            precondition(labels.count == count, "classify returned \(labels.count) labels for \(count) images")
            predicted += labels
            first += count
        }
        return Evaluation(labels: labels, actual: data.labels.prefix(total).map(Int.init), predicted: predicted)
    }

    /// Through a compiled model's function: the label is the argmax of its logits.
    public static func run(_ function: CompiledFunction, on data: FashionMNIST, labels: [String],
                           limit: Int? = nil) throws(ModelError) -> Evaluation {
        let classes = labels.count
        return try run(on: data, labels: labels, limit: limit) { (images, count) throws(ModelError) -> [Int] in
            var logits = [Float](repeating: 0, count: count * classes)
            try logits.withUnsafeMutableBufferPointer { output throws(ModelError) in
                try function.run(input: images, count: count, output: output)
            }
            return (0..<count).map { i in
                var best = 0
                for k in 1..<classes where logits[i * classes + k] > logits[i * classes + best] { best = k }
                return best
            }
        }
    }
}

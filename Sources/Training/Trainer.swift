import Foundation
import COpenBLAS

/// Trains a network on Fashion-MNIST: shuffled mini-batches of augmented
/// images, split across threads, SGD with Nesterov momentum under a one-cycle
/// schedule, validation after every epoch, test accuracy at the end.
public struct Trainer: Sendable {
    public var architecture: Architecture
    public var configuration: TrainingConfiguration

    public init(architecture: Architecture = .clothing(), configuration: TrainingConfiguration = TrainingConfiguration()) {
        self.architecture = architecture
        self.configuration = configuration
    }

    public struct Result: Sendable {
        public var architecture: Architecture
        public var configuration: TrainingConfiguration
        public var network: Network
        public var validationAccuracy: Double
        public var testAccuracy: Double
        public var epochs: [EpochReport]
        public var trainingImages: Int
        public var validationImages: Int
        public var testImages: Int
    }

    /// The fixed split of the training set: validation indices, then the
    /// rest, both in a permuted order that does not depend on the seed.
    static func split(count: Int, validation: Int) -> (training: [Int], validation: [Int]) {
        var order = Array(0..<count)
        var generator = SeededGenerator(seed: 0x5EED_5EED)
        generator.shuffle(&order)
        let v = min(validation, count)
        return (Array(order[v...]), Array(order[..<v]))
    }

    public func train(training: FashionMNIST, test: FashionMNIST,
                      progress: (TrainingProgress) -> Void = { _ in }) -> Result {
        let c = configuration
        precondition(c.epochs >= 1 && c.batchSize >= c.threads && c.threads >= 1, "bad configuration")
        // Each thread multiplies its own matrices; OpenBLAS's own threads would only compete.
        openblas_set_num_threads(1)
        let started = Date()

        var (trainingIndices, validationIndices) = Self.split(count: training.count, validation: c.validationCount)
        if let limit = c.trainingLimit { trainingIndices = Array(trainingIndices.prefix(limit)) }
        let stepsPerEpoch = trainingIndices.count / c.batchSize
        precondition(stepsPerEpoch >= 1, "fewer training images than one batch")
        let totalSteps = stepsPerEpoch * c.epochs
        let schedule = LearningRateSchedule(peak: c.peakLearningRate, totalSteps: totalSteps,
                                            warmupSteps: Int(Double(totalSteps) * c.warmupFraction))

        var network = Network(architecture: architecture, seed: c.seed)
        var optimizer = SGDNesterov(parameterCount: network.parameterCount, momentum: c.momentum,
                                    weightDecay: c.weightDecay, decayMask: network.decayMask)
        let shard = (c.batchSize + c.threads - 1) / c.threads
        let workers = (0..<c.threads).map { _ in NetworkWorker(plan: network.plan, capacity: shard) }
        var generator = SeededGenerator(seed: c.seed, stream: 1)
        let pixels = FashionMNIST.pixelsPerImage
        var batchImages = [Float](repeating: 0, count: c.batchSize * pixels)
        var batchLabels = [Int32](repeating: 0, count: c.batchSize)
        var gradients = [Float](repeating: 0, count: network.parameterCount)

        progress(.started(architecture: architecture.summary, parameters: network.parameterCount,
                          trainingImages: trainingIndices.count, validationImages: validationIndices.count,
                          steps: totalSteps))
        var reports: [EpochReport] = []
        var step = 0
        for epoch in 1...c.epochs {
            let epochStarted = Date()
            var order = trainingIndices
            generator.shuffle(&order)
            var lossSum = 0.0
            var correct = 0
            for batchIndex in 0..<stepsPerEpoch {
                // Augment on this thread, from the one generator: the batch
                // depends only on the seed, never on thread timing.
                training.pixels.withUnsafeBufferPointer { source in
                    batchImages.withUnsafeMutableBufferPointer { destination in
                        for i in 0..<c.batchSize {
                            let index = order[batchIndex * c.batchSize + i]
                            c.augmentation.apply(source.baseAddress! + index * pixels,
                                                 into: destination.baseAddress! + i * pixels, generator: &generator)
                            batchLabels[i] = Int32(training.labels[index])
                        }
                    }
                }
                let currentStep = step
                network.parameters.withUnsafeBufferPointer { parameters in
                    network.statistics.withUnsafeBufferPointer { statistics in
                        batchImages.withUnsafeBufferPointer { images in
                            batchLabels.withUnsafeBufferPointer { labels in
                                let job = StepJob(parameters: parameters.baseAddress!, statistics: statistics.baseAddress!,
                                                  images: images.baseAddress!, labels: labels.baseAddress!)
                                DispatchQueue.concurrentPerform(iterations: workers.count) { w in
                                    let first = w * shard
                                    let count = min(shard, c.batchSize - first)
                                    var dropout = SeededGenerator(seed: c.seed, stream: UInt64(2 + currentStep * workers.count + w))
                                    workers[w].trainingStep(job, first: first, count: count, scale: 1 / Float(c.batchSize),
                                                            smoothing: c.labelSmoothing, generator: &dropout)
                                }
                            }
                        }
                    }
                }
                // A fixed order of summation: the same bits whatever thread finished first.
                gradients.withUnsafeMutableBufferPointer { total in
                    total.update(repeating: 0)
                    for worker in workers {
                        worker.gradients.withUnsafeBufferPointer { g in
                            for i in 0..<total.count { total[i] += g[i] }
                        }
                        lossSum += worker.result.lossSum
                        correct += worker.result.correct
                    }
                }
                optimizer.step(parameters: &network.parameters, gradients: gradients,
                               learningRate: schedule.rate(atStep: step))
                updateRunningStatistics(&network, workers: workers)
                step += 1
                if batchIndex % 50 == 49 || batchIndex == stepsPerEpoch - 1 {
                    progress(.step(epoch: epoch, step: batchIndex + 1, stepsPerEpoch: stepsPerEpoch,
                                   loss: lossSum / Double((batchIndex + 1) * c.batchSize)))
                }
            }
            let trainSeconds = Date().timeIntervalSince(epochStarted)
            let validation = Self.predict(network, images: training, indices: validationIndices, workers: workers)
            let validationCorrect = zip(validation, validationIndices).filter { $0.0 == Int(training.labels[$0.1]) }.count
            let elapsed = Date().timeIntervalSince(started)
            let seen = Double(stepsPerEpoch * c.batchSize)
            let report = EpochReport(
                epoch: epoch, epochs: c.epochs, loss: lossSum / seen, trainingAccuracy: Double(correct) / seen,
                validationAccuracy: validationIndices.isEmpty ? .nan : Double(validationCorrect) / Double(validationIndices.count),
                imagesPerSecond: seen / trainSeconds, learningRate: schedule.rate(atStep: max(step - 1, 0)),
                secondsElapsed: elapsed, secondsLeft: elapsed / Double(epoch) * Double(c.epochs - epoch))
            reports.append(report)
            progress(.epoch(report))
        }

        let testIndices = Array(0..<min(test.count, c.testLimit ?? test.count))
        let predictions = Self.predict(network, images: test, indices: testIndices, workers: workers)
        let testCorrect = zip(predictions, testIndices).filter { $0.0 == Int(test.labels[$0.1]) }.count
        let testAccuracy = Double(testCorrect) / Double(max(testIndices.count, 1))
        progress(.finished(testAccuracy: testAccuracy, seconds: Date().timeIntervalSince(started)))
        return Result(architecture: architecture, configuration: c, network: network, validationAccuracy: reports.last?.validationAccuracy ?? .nan,
                      testAccuracy: testAccuracy, epochs: reports, trainingImages: trainingIndices.count,
                      validationImages: validationIndices.count, testImages: testIndices.count)
    }

    /// Running statistics follow PyTorch: momentum 0.1, unbiased variance.
    /// Each thread normalised its own share; their moments are averaged.
    private func updateRunningStatistics(_ network: inout Network, workers: [NetworkWorker]) {
        let momentum: Float = 0.1
        for (index, layer) in network.plan.layers.enumerated() {
            guard case .batchNorm = layer.spec else { continue }
            let channels = layer.input.channels
            for ch in 0..<channels {
                var mean: Float = 0
                var variance: Float = 0
                var weight: Float = 0
                for worker in workers {
                    let moments = worker.workspace.batchMoments(layer: index)
                    let run = Float(worker.workspace.batch * layer.input.height * layer.input.width)
                    let share = Float(worker.workspace.batch)
                    mean += share * moments.mean[ch]
                    variance += share * moments.variance[ch] * run / max(run - 1, 1)
                    weight += share
                }
                let m = layer.statisticsOffset + ch
                let v = layer.statisticsOffset + channels + ch
                network.statistics[m] = (1 - momentum) * network.statistics[m] + momentum * mean / weight
                network.statistics[v] = (1 - momentum) * network.statistics[v] + momentum * variance / weight
            }
        }
    }

    /// Inference-mode predictions (argmax of the logits), the workers taking
    /// chunks in turn.
    static func predict(_ network: Network, images: FashionMNIST, indices: [Int], workers: [NetworkWorker]) -> [Int] {
        guard !indices.isEmpty else { return [] }
        var predictions = [Int](repeating: -1, count: indices.count)
        let capacity = workers[0].workspace.capacity
        let chunks = (indices.count + capacity - 1) / capacity
        let classes = network.outputCount
        network.parameters.withUnsafeBufferPointer { parameters in
            network.statistics.withUnsafeBufferPointer { statistics in
                images.pixels.withUnsafeBufferPointer { source in
                    predictions.withUnsafeMutableBufferPointer { output in
                        let shared = SharedPointers(parameters: parameters.baseAddress!, statistics: statistics.baseAddress!,
                                                    source: source.baseAddress!, output: output.baseAddress!)
                        DispatchQueue.concurrentPerform(iterations: workers.count) { w in
                            let worker = workers[w]
                            var unused = SeededGenerator(seed: 0)
                            for chunk in stride(from: w, to: chunks, by: workers.count) {
                                let first = chunk * capacity
                                let count = min(capacity, indices.count - first)
                                for i in 0..<count {
                                    Augmentation.convert(shared.source + indices[first + i] * FashionMNIST.pixelsPerImage,
                                                         into: worker.images + i * FashionMNIST.pixelsPerImage)
                                }
                                worker.workspace.forward(worker.images, count: count, parameters: shared.parameters,
                                                         statistics: shared.statistics, training: false, generator: &unused)
                                let logits = worker.workspace.logits
                                for i in 0..<count {
                                    var best = 0
                                    for k in 1..<classes where logits[i * classes + k] > logits[i * classes + best] { best = k }
                                    shared.output[first + i] = best
                                }
                            }
                        }
                    }
                }
            }
        }
        return predictions
    }
}

import Foundation

/// Trains a network on Fashion-MNIST and, when given, on labelled photo
/// tensors: shuffled mini-batches of augmented examples, split across
/// threads, SGD with Nesterov momentum under a one-cycle schedule, validation
/// after every epoch (held-out Fashion-MNIST images and held-out photos),
/// test accuracy at the end. From scratch, or from a parent network
/// (fine-tuning).
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
        /// On the held-out photos after the last epoch; nil without photos.
        public var photoValidationAccuracy: Double?
        public var testAccuracy: Double
        public var epochs: [EpochReport]
        public var trainingImages: Int
        public var validationImages: Int
        public var testImages: Int
        public var trainingPhotos: Int
        public var heldOutPhotos: Int
        /// Whether the run started from a parent's weights.
        public var fineTuned: Bool
        /// Wall-clock time of the run.
        public var seconds: Double
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

    /// How many examples an epoch of `train` takes: the Fashion-MNIST images
    /// left after validation and the limit, plus the photos' share. A batch
    /// must not be larger, nor shared by more threads.
    public func examplesPerEpoch(fashionImages: Int, photos: Int, softTargets: Int = 0) -> Int {
        var fashion = max(fashionImages - min(configuration.validationCount, fashionImages), 0)
        if let limit = configuration.trainingLimit { fashion = min(fashion, limit) }
        return ExampleStream(fashion: Array(0..<fashion), fashionCount: fashionImages, photos: photos,
                             photoShare: configuration.photoShare, softTargets: softTargets,
                             softTargetShare: configuration.softTargetShare).perEpoch
    }

    /// Trains on `training` (Fashion-MNIST), `photos` and `softTargets`,
    /// validating on held-out Fashion-MNIST images and on `heldOutPhotos`
    /// every epoch. `photoWeights` (one per photo, when given) makes each
    /// photo drawn that much more often than a photo of weight 1. With
    /// `parent`, starts from its weights and running statistics.
    public func train(training: FashionMNIST, test: FashionMNIST, photos: LabelledTensors = LabelledTensors(),
                      photoWeights: [Double]? = nil, softTargets: SoftTargets = SoftTargets(),
                      heldOutPhotos: LabelledTensors = LabelledTensors(), parent: Network? = nil,
                      progress: (TrainingProgress) -> Void = { _ in }) -> Result {
        let c = configuration
        precondition(c.epochs >= 1 && c.batchSize >= c.threads && c.threads >= 1, "bad configuration")
        precondition(parent == nil || parent!.architecture == architecture, "the parent has another architecture")
        precondition((0..<1).contains(c.photoShare + c.softTargetShare), "the photo and soft-target shares add up to less than 1")
        precondition(photoWeights == nil || photoWeights!.count == photos.count, "one weight per photo")
        precondition(!c.fixedNormalization || parent != nil, "only a parent's batch norms can be kept fixed")
        // Each thread multiplies its own matrices; OpenBLAS's own threads would only compete.
        BLASThreads.useCallingThreadOnly()
        let started = Date()

        var (trainingIndices, validationIndices) = Self.split(count: training.count, validation: c.validationCount)
        if let limit = c.trainingLimit { trainingIndices = Array(trainingIndices.prefix(limit)) }
        var examples = ExampleStream(fashion: trainingIndices, fashionCount: training.count, photos: photos.count,
                                     photoShare: c.photoShare, photoWeights: photoWeights,
                                     softTargets: softTargets.count, softTargetShare: c.softTargetShare)
        let classes = SoftTargets.classes
        let stepsPerEpoch = examples.perEpoch / c.batchSize
        precondition(stepsPerEpoch >= 1, "fewer training examples than one batch")
        let totalSteps = stepsPerEpoch * c.epochs
        let schedule = LearningRateSchedule(peak: c.peakLearningRate, totalSteps: totalSteps,
                                            warmupSteps: Int(Double(totalSteps) * c.warmupFraction))

        var network = parent ?? Network(architecture: architecture, seed: c.seed)
        var optimizer = SGDNesterov(parameterCount: network.parameterCount, momentum: c.momentum,
                                    weightDecay: c.weightDecay, decayMask: network.decayMask)
        let shard = (c.batchSize + c.threads - 1) / c.threads
        let workers = (0..<c.threads).map { _ in NetworkWorker(plan: network.plan, capacity: shard) }
        var generator = SeededGenerator(seed: c.seed, stream: 1)
        let pixels = FashionMNIST.pixelsPerImage
        var batchImages = [Float](repeating: 0, count: c.batchSize * pixels)
        var batchAccepted = [UInt64](repeating: 0, count: c.batchSize)
        var batchSoft = [Float](repeating: 0, count: c.batchSize * classes)
        var gradients = [Float](repeating: 0, count: network.parameterCount)

        progress(.started(architecture: architecture.summary, parameters: network.parameterCount,
                          trainingImages: examples.perEpoch, validationImages: validationIndices.count,
                          heldOutPhotos: heldOutPhotos.count, steps: totalSteps))
        var reports: [EpochReport] = []
        var step = 0
        for epoch in 1...c.epochs {
            let epochStarted = Date()
            let order = examples.nextEpoch(&generator)
            var lossSum = 0.0
            var correct = 0
            for batchIndex in 0..<stepsPerEpoch {
                // Augment on this thread, from the one generator: the batch
                // depends only on the seed, never on thread timing.
                training.pixels.withUnsafeBufferPointer { fashion in
                    photos.values.withUnsafeBufferPointer { photoValues in
                      softTargets.values.withUnsafeBufferPointer { softValues in
                        batchImages.withUnsafeMutableBufferPointer { destination in
                            for i in 0..<c.batchSize {
                                let index = order[batchIndex * c.batchSize + i]
                                let target = destination.baseAddress! + i * pixels
                                if index < training.count {
                                    c.augmentation.apply(fashion.baseAddress! + index * pixels, into: target,
                                                         generator: &generator)
                                    batchAccepted[i] = SoftmaxCrossEntropy.mask(label: Int(training.labels[index]))
                                } else if index < training.count + photos.count {
                                    let photo = index - training.count
                                    c.photoAugmentation.apply(photoValues.baseAddress! + photo * pixels, into: target,
                                                              generator: &generator)
                                    batchAccepted[i] = photos.accepted[photo]
                                } else {
                                    let soft = index - training.count - photos.count
                                    c.photoAugmentation.apply(softValues.baseAddress! + soft * pixels, into: target,
                                                              generator: &generator)
                                    batchAccepted[i] = 0
                                    for k in 0..<classes {
                                        batchSoft[i * classes + k] = softTargets.probabilities[soft * classes + k]
                                    }
                                }
                            }
                        }
                      }
                    }
                }
                let currentStep = step
                network.parameters.withUnsafeBufferPointer { parameters in
                    network.statistics.withUnsafeBufferPointer { statistics in
                        batchImages.withUnsafeBufferPointer { images in
                            batchAccepted.withUnsafeBufferPointer { accepted in
                              batchSoft.withUnsafeBufferPointer { soft in
                                let job = StepJob(parameters: parameters.baseAddress!, statistics: statistics.baseAddress!,
                                                  images: images.baseAddress!, accepted: accepted.baseAddress!,
                                                  softTargets: soft.baseAddress!, temperature: c.distillationTemperature,
                                                  fixedNormalization: c.fixedNormalization)
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
                if !c.fixedNormalization { updateRunningStatistics(&network, workers: workers) }
                step += 1
                if batchIndex % 20 == 19 || batchIndex == stepsPerEpoch - 1 {
                    let seconds = Date().timeIntervalSince(epochStarted)
                    let rate = Double((batchIndex + 1) * c.batchSize) / max(seconds, 1e-9)
                    progress(.step(StepReport(epoch: epoch, step: batchIndex + 1, stepsPerEpoch: stepsPerEpoch,
                                              loss: lossSum / Double((batchIndex + 1) * c.batchSize),
                                              imagesPerSecond: rate,
                                              secondsLeft: Double((stepsPerEpoch - batchIndex - 1) * c.batchSize) / rate)))
                }
            }
            let trainSeconds = Date().timeIntervalSince(epochStarted)
            let validation = Self.predictions(network, fashion: training, indices: validationIndices, workers: workers)
            let validationCorrect = zip(validation, validationIndices).filter { $0.0 == Int(training.labels[$0.1]) }.count
            let photoAccuracy = heldOutPhotos.isEmpty ? nil
                : Self.accuracy(Self.logits(network, photos: heldOutPhotos, workers: workers), of: heldOutPhotos)
            let elapsed = Date().timeIntervalSince(started)
            let seen = Double(stepsPerEpoch * c.batchSize)
            let report = EpochReport(
                epoch: epoch, epochs: c.epochs, loss: lossSum / seen, trainingAccuracy: Double(correct) / seen,
                validationAccuracy: validationIndices.isEmpty ? .nan : Double(validationCorrect) / Double(validationIndices.count),
                photoValidationAccuracy: photoAccuracy,
                imagesPerSecond: seen / trainSeconds, learningRate: schedule.rate(atStep: max(step - 1, 0)),
                secondsElapsed: elapsed, secondsLeft: elapsed / Double(epoch) * Double(c.epochs - epoch))
            reports.append(report)
            progress(.epoch(report))
        }

        let testIndices = Array(0..<min(test.count, c.testLimit ?? test.count))
        let predictions = Self.predictions(network, fashion: test, indices: testIndices, workers: workers)
        let testCorrect = zip(predictions, testIndices).filter { $0.0 == Int(test.labels[$0.1]) }.count
        let testAccuracy = Double(testCorrect) / Double(max(testIndices.count, 1))
        let seconds = Date().timeIntervalSince(started)
        progress(.finished(testAccuracy: testAccuracy, seconds: seconds))
        return Result(architecture: architecture, configuration: c, network: network,
                      validationAccuracy: reports.last?.validationAccuracy ?? .nan,
                      photoValidationAccuracy: reports.last?.photoValidationAccuracy,
                      testAccuracy: testAccuracy, epochs: reports, trainingImages: trainingIndices.count,
                      validationImages: validationIndices.count, testImages: testIndices.count,
                      trainingPhotos: photos.count, heldOutPhotos: heldOutPhotos.count, fineTuned: parent != nil,
                      seconds: seconds)
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
}

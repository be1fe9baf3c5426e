import Foundation

/// Several fine-tuning runs averaged into one network. Each run starts from
/// the same parent and differs only by its seed (the order of the examples,
/// their augmentation, dropout); the average of their weights keeps what
/// they agree on and drops much of what one seed's order happened to teach,
/// at no cost when the model runs (the network is the same size).
extension Trainer {
    /// `configuration.runs` whole runs of the configuration from `parent`,
    /// seeds `seed`, `seed + 1`, ...; the result's network is their average,
    /// and its figures are the average's, measured as a run measures its
    /// network. Progress says when each run starts, then each run's own
    /// epochs and test accuracy, then the average's figures.
    func trainAveraging(training: FashionMNIST, test: FashionMNIST, photos: LabelledTensors,
                        heldOutPhotos: LabelledTensors, parent: Network,
                        progress: (TrainingProgress) -> Void) -> Result {
        let c = configuration
        let started = Date()
        var runs: [Result] = []
        for run in 0..<c.runs {
            var one = c
            one.runs = 1
            one.seed = c.seed &+ UInt64(run)
            progress(.runStarted(run: run + 1, runs: c.runs, seed: one.seed))
            runs.append(Trainer(architecture: architecture, configuration: one)
                .trainOneRun(training: training, test: test, photos: photos, heldOutPhotos: heldOutPhotos,
                             parent: parent, progress: progress))
        }
        let network = Network(averaging: runs.map(\.network))
        let workers = (0..<c.threads).map { _ in NetworkWorker(plan: network.plan, capacity: 64) }
        let validationIndices = fashionSplit(count: training.count).validation
        var result = runs[0]
        result.configuration = c
        result.network = network
        result.validationAccuracy = Self.accuracy(network, fashion: training, indices: validationIndices, workers: workers)
        result.photoValidationAccuracy = heldOutPhotos.isEmpty ? nil
            : Self.accuracy(Self.logits(network, photos: heldOutPhotos, workers: workers), of: heldOutPhotos)
        result.testAccuracy = Self.accuracy(network, fashion: test, indices: testSet(count: test.count), workers: workers)
        result.epochs = runs.flatMap(\.epochs)
        result.seconds = Date().timeIntervalSince(started)
        result.averagedRuns = runs.map {
            RunSummary(seed: $0.configuration.seed, photoValidationAccuracy: $0.photoValidationAccuracy,
                       testAccuracy: $0.testAccuracy)
        }
        progress(.averaged(AveragedReport(runs: c.runs, validationAccuracy: result.validationAccuracy,
                                          photoValidationAccuracy: result.photoValidationAccuracy,
                                          testAccuracy: result.testAccuracy, seconds: result.seconds)))
        return result
    }
}

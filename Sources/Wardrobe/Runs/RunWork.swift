internal import Catalogue

/// A use case's work on one item, done by the run engine on its worker
/// threads. One value serves every worker at once, so it holds only what
/// they can share: the prepared classifier, the recipe, the image processor.
protocol RunWork: Sendable {
    associatedtype Item: Sendable
    associatedtype Outcome: Sendable

    /// Works on one item, on a worker thread. `reader` is how this worker reads the
    /// catalogue (`RunReader`). What goes wrong with one item is part of its outcome,
    /// never thrown: the run goes on with the others.
    func process(_ item: Item, reader: RunReader) -> Outcome

    /// Works on the items a worker took together (`RunEngine.Settings.itemsPerTake`),
    /// giving one outcome per item, in the items' order; when `stop` turns true
    /// part-way (Ctrl-C), the outcomes of the items begun before it, and the
    /// rest stay undone, so that stopping waits for one item, not a whole take.
    /// By default each item is `process`ed alone; a use case with a step that
    /// costs less done once for several items (the model) does it once for them.
    func process(_ items: ArraySlice<Item>, reader: RunReader, until stop: () -> Bool) -> [Outcome]
}

extension RunWork {
    func process(_ items: ArraySlice<Item>, reader: RunReader, until stop: () -> Bool) -> [Outcome] {
        var outcomes: [Outcome] = []
        for item in items {
            if stop() { break }
            outcomes.append(process(item, reader: reader))
        }
        return outcomes
    }
}

/// What a use case writes, on the run engine's one writer thread (the
/// thread that called `RunEngine.run`). It decides what each outcome means
/// for the catalogue, whether an image is new included. `run` is nil when the
/// run records nothing (a dry run): the writer then only tallies.
///
/// Each batch is written with `CatalogueStore.writing`, which records the run's
/// counts in the batch's transaction: `counts` turns what the writer will have
/// written once the batch is in (`written`, as it will be) into the run's
/// counts. A run that is never closed (killed, or its close refused by
/// another process's lock) then still says what it did.
protocol RunWriter {
    associatedtype Outcome: Sendable

    /// Outcomes taken and not committed yet. The engine commits when this
    /// reaches the batch size, after a quiet second, and at the end.
    var pending: Int { get }

    /// What has been written so far (images imported and classified, items
    /// failed), for the run's record in the catalogue.
    var written: RunCounts { get }

    /// Called once, after the run is opened and before any outcome: for what
    /// the use case knew before the workers started.
    mutating func begin(run: RunID?, counts: (RunCounts) -> RunCounts) throws

    /// Takes one outcome. A throw ends the run as failed.
    mutating func take(_ outcome: Outcome, run: RunID?) throws

    /// Writes the pending outcomes, with the run's counts. A throw ends the run as failed.
    mutating func commit(run: RunID?, counts: (RunCounts) -> RunCounts) throws
}

extension RunWriter {
    mutating func begin(run: RunID?, counts: (RunCounts) -> RunCounts) throws {}
}

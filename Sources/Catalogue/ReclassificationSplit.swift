/// One reclassification as several processes make it together (on one machine or many),
/// each its own run: the model and recipe they classify with, and when the split began,
/// the end of the last reclassification with that model and recipe that finished. An image
/// counts as done in the split once a `reclassify` run with that model and recipe, begun
/// after that end, has classified it; so processes started together agree on what is left
/// without asking each other, one started after an interrupted or killed part goes on from
/// what that part committed, and one started after a finished split begins a new one.
/// Times are the machines' clocks, as the leases' ends are: machines that share a catalogue
/// keep theirs set (NTP).
public struct ReclassificationSplit: Sendable, Equatable {
    public let model: ModelID
    public let recipe: Recipe
    /// Milliseconds since 1970: runs begun after this are the split's.
    public let since: Int64

    public init(model: ModelID, recipe: Recipe, since: Int64) {
        self.model = model
        self.recipe = recipe
        self.since = since
    }

    /// The end of the last finished reclassification of `:model` and the recipe
    /// (`:recipe_name`, `:recipe_version`; a run closed before outcomes were recorded counted as
    /// finished), in SQL both engines run.
    static let startSQL = """
        SELECT max(finished_at) FROM runs
        WHERE command = 'reclassify' AND model_id = :model AND recipe_name = :recipe_name
          AND recipe_version = :recipe_version AND finished_at IS NOT NULL AND coalesce(outcome, 'finished') = 'finished'
        """

    /// A condition true when the image `image` (an SQL expression) is done in the split whose
    /// values are `:model`, `:recipe_name`, `:recipe_version` and `:since`: a classification of
    /// a run of the split (through the index of classifications by image and run, a few rows an image).
    static func doneSQL(image: String) -> String {
        """
        EXISTS (SELECT 1 FROM classifications AS dc JOIN runs AS dr ON dr.id = dc.run_id
                WHERE dc.image_id = \(image) AND dr.command = 'reclassify' AND dr.model_id = :model
                  AND dr.recipe_name = :recipe_name AND dr.recipe_version = :recipe_version AND dr.started_at > :since)
        """
    }
}

/// What a process learns when it asks for an image's lease in a split.
public enum ImageLease: Sendable, Equatable {
    /// The lease is this process's: it classifies the image.
    case taken
    /// A run of the split has classified the image: nobody does it again.
    case done
    /// Another process holds it and has not classified it yet: ask again later.
    case held
    /// Forgotten since the run listed it (`forget` beside the run): nobody classifies it. Its
    /// lease failed the images' foreign key, and the run stopped with SQLite's error and SQL.
    case gone
}

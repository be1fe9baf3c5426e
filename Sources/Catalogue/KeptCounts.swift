/// The counts the catalogue's triggers keep (schema steps 15 and 17: `catalogue_counts`,
/// `label_counts` and `colour_counts`), so that `stats` reads a few rows instead of every image; and the
/// same counts taken from the rows themselves, which `check` compares them with
/// (both read by `KeptCountsReader`).
struct KeptCounts: Equatable {
    struct LabelCounts: Equatable {
        var images = 0
        /// Images with a person's label (`none` included).
        var corrected = 0
        /// Images whose effective label is the model's own, and the sum of the model's
        /// confidence in them, in billionths, each rounded to the nearest.
        var modelImages = 0
        var modelConfidence = 0
    }

    /// By what is counted: "images", "paths", "missing paths", "classifications",
    /// "corrections", "failing files". Counts of 0 are left out.
    var totals: [String: Int] = [:]
    /// By effective label; labels without images left out.
    var labels: [Int: LabelCounts] = [:]
    /// By effective garment colour (a person's, else the measured one): its images and those
    /// whose colour a person gave. Colours without images left out.
    var colours: [String: ColourCounts] = [:]

    struct ColourCounts: Equatable {
        var images = 0
        var byPerson = 0
    }

    func total(_ counted: String) -> Int { totals[counted] ?? 0 }

    static let keptTotalsSQL = "SELECT counted, amount FROM catalogue_counts"
    static let keptLabelsSQL = "SELECT label, images, corrected, model_images, model_confidence FROM label_counts"
    static let keptColoursSQL = "SELECT colour, images, by_person FROM colour_counts"
    static let recountedColoursSQL = """
        SELECT coalesce(person_colour, colour) AS colour, count(*) AS images, count(person_colour) AS by_person
        FROM images WHERE coalesce(person_colour, colour) IS NOT NULL GROUP BY coalesce(person_colour, colour)
        """

    static let recountedTotalsSQL = """
        SELECT 'images' AS counted, count(*) AS amount FROM images
        UNION ALL SELECT 'paths', count(*) FROM image_paths
        UNION ALL SELECT 'missing paths', count(*) FROM image_paths WHERE missing = 1
        UNION ALL SELECT 'classifications', count(*) FROM classifications
        UNION ALL SELECT 'corrections', count(*) FROM corrections
        UNION ALL SELECT 'failing files', count(*) FROM failing_files
        """

    /// `billionths` makes a confidence column its billionths (`KeptCountsReader.billionths`).
    static func recountedLabelsSQL(billionths: (String) -> String) -> String {
        """
        SELECT effective_label AS label, count(*) AS images, count(corrected_label) AS corrected,
               count(CASE WHEN effective_label = label THEN 1 END) AS model_images,
               coalesce(sum(CASE WHEN effective_label = label THEN \(billionths("confidence")) END), 0) AS model_confidence
        FROM current_classifications GROUP BY effective_label
        """
    }

    static func total(_ row: some CatalogueRow) -> (String, Int) {
        (row.text("counted"), row.int("amount"))
    }

    static func colour(_ row: some CatalogueRow) -> (String, ColourCounts) {
        (row.text("colour"), ColourCounts(images: row.int("images"), byPerson: row.int("by_person")))
    }

    static func label(_ row: some CatalogueRow) -> (Int, LabelCounts) {
        (row.int("label"), LabelCounts(images: row.int("images"), corrected: row.int("corrected"),
                                       modelImages: row.int("model_images"), modelConfidence: row.int("model_confidence")))
    }

    /// The counts of `totals` and `labels` rows. What the triggers never keep (a count below 0,
    /// a label outside 0...10, more confidence than images) was stored by another program.
    init(totals: [(String, Int)], labels: [(Int, LabelCounts)], colours: [(String, ColourCounts)], path: String) throws {
        for (counted, amount) in totals where amount != 0 {
            guard amount > 0 else { throw Self.strange(path, "the kept count of \(counted): \(amount)") }
            self.totals[counted] = amount
        }
        for (label, counts) in labels where counts != LabelCounts() {
            let (mostConfidence, overflow) = counts.modelImages.multipliedReportingOverflow(by: 1_000_000_000)
            guard (0...Catalogue.noneLabel).contains(label), counts.images > 0, (0...counts.images).contains(counts.corrected),
                  (0...counts.images).contains(counts.modelImages),
                  (0...(overflow ? Int.max : mostConfidence)).contains(counts.modelConfidence) else {
                throw Self.strange(path, "the kept counts of label \(label): \(counts.images) images, \(counts.corrected) "
                                   + "labelled by a person, \(counts.modelImages) the model's with confidence "
                                   + "\(counts.modelConfidence) billionths")
            }
            self.labels[label] = counts
        }
        for (colour, counts) in colours where counts != ColourCounts() {
            guard counts.images > 0, (0...counts.images).contains(counts.byPerson) else {
                throw Self.strange(path, "the kept counts of colour \(colour): \(counts.images) images, "
                                   + "\(counts.byPerson) given by a person")
            }
            self.colours[colour] = counts
        }
    }

    /// Images by colour, by palette name (the caller's order), and those with none last (`colour` nil).
    var colourCounts: [CatalogueStats.ColourCount] {
        let coloured = colours.sorted { $0.key < $1.key }.map {
            CatalogueStats.ColourCount(colour: $0.key, images: $0.value.images, byPerson: $0.value.byPerson)
        }
        let none = total("images") - coloured.reduce(0) { $0 + $1.images }
        return coloured + (none > 0 ? [CatalogueStats.ColourCount(colour: nil, images: none, byPerson: 0)] : [])
    }

    private static func strange(_ path: String, _ detail: String) -> CatalogueError {
        .strangeValue(path: path, detail: detail)
    }

    /// Per effective label, in label order (`none` last): its images, and the model's mean
    /// confidence in the images whose label is the model's (nil when a person gave each another).
    var labelStats: [CatalogueStats.LabelStats] {
        labels.sorted { $0.key < $1.key }.map { label, counts in
            CatalogueStats.LabelStats(label: label, count: counts.images, meanConfidence: counts.modelImages == 0 ? nil
                                      : Double(counts.modelConfidence) / 1e9 / Double(counts.modelImages))
        }
    }

    /// `check`'s line when the kept counts `read` finds are not those of the rows, or are
    /// counts the triggers never keep; nil when they agree.
    static func check(_ read: () throws -> (kept: KeptCounts, recounted: KeptCounts)) throws -> String? {
        do {
            let (kept, recounted) = try read()
            return difference(kept: kept, recounted: recounted)
        } catch CatalogueError.strangeValue(_, let detail) {
            return "\(detail) (changed by another program)"
        }
    }

    private static func difference(kept: KeptCounts, recounted: KeptCounts) -> String? {
        guard kept != recounted else { return nil }
        var differing = Set(kept.totals.keys).union(recounted.totals.keys).sorted()
            .filter { kept.totals[$0] != recounted.totals[$0] }
            .map { "\($0): \(kept.total($0)) kept, \(recounted.total($0)) in the rows" }
        differing += Set(kept.labels.keys).union(recounted.labels.keys).sorted()
            .filter { kept.labels[$0] != recounted.labels[$0] }
            .map { "label \($0): \(kept.labels[$0]?.images ?? 0) images kept, \(recounted.labels[$0]?.images ?? 0) in the rows" }
        differing += Set(kept.colours.keys).union(recounted.colours.keys).sorted()
            .filter { kept.colours[$0] != recounted.colours[$0] }
            .map { "colour \($0): \(kept.colours[$0]?.images ?? 0) images kept, \(recounted.colours[$0]?.images ?? 0) in the rows" }
        return "kept counts that are not the rows' (\(differing.joined(separator: "; "))) (changed by another program)"
    }
}

/// What reads the kept counts and counts the rows again, with either engine's connection:
/// the SQL is both engines', but for the rounding of a confidence to billionths.
protocol KeptCountsReader {
    associatedtype Row: CatalogueRow
    /// Where the catalogue lives, as messages name it.
    var path: String { get }
    func countRows<T>(_ sql: String, _ body: (Row) throws -> T) throws -> [T]
    /// `confidence` (a column) in billionths, rounded as the engine's triggers round it.
    func billionths(_ confidence: String) -> String
}

extension KeptCountsReader {
    /// The counts the triggers keep.
    func keptCounts() throws -> KeptCounts {
        try KeptCounts(totals: countRows(KeptCounts.keptTotalsSQL) { KeptCounts.total($0) },
                       labels: countRows(KeptCounts.keptLabelsSQL) { KeptCounts.label($0) },
                       colours: countRows(KeptCounts.keptColoursSQL) { KeptCounts.colour($0) }, path: path)
    }

    /// The same counts taken from the rows.
    func recountedCounts() throws -> KeptCounts {
        try KeptCounts(totals: countRows(KeptCounts.recountedTotalsSQL) { KeptCounts.total($0) },
                       labels: countRows(KeptCounts.recountedLabelsSQL(billionths: billionths)) { KeptCounts.label($0) },
                       colours: countRows(KeptCounts.recountedColoursSQL) { KeptCounts.colour($0) }, path: path)
    }
}

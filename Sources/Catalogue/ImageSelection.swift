import Files
import Foundation

/// Which images a listing, a count or a page of the gallery takes, by their
/// current classification, effective label, paths and dates: the filters
/// `wardrobe list` and the server's pages share. Every filter left nil
/// matches everything.
public struct ImageSelection: Sendable, Equatable {
    /// The effective label: a person's label (0...9 or `Catalogue.noneLabel`),
    /// else the model's current one.
    public var label: Int?
    /// True: only images a person labelled; false: only those they did not.
    public var corrected: Bool?
    /// Only images none of whose paths existed at the last look.
    public var missing: Bool
    /// Only images with a path matching this GLOB pattern.
    public var pathPattern: String?
    /// Only images with a path in this folder or one below it (written without a final `/`).
    public var folder: String?
    public var confidence: ClosedRange<Double>?
    /// When the current classification was made.
    public var classified: Range<Date>?
    /// When the image was first imported.
    public var imported: Range<Date>?
    /// When the photo was taken, by the camera's clock read as UTC (`TakenTime.clock`); an
    /// image with no capture time is never in the range.
    public var taken: Range<Date>?
    /// Only images whose current classification came from this model.
    public var model: ModelID?
    /// Only images whose garment colour (a person's, else the measured) is one of these names.
    public var colours: [String]?

    public init(label: Int? = nil, corrected: Bool? = nil, missing: Bool = false, pathPattern: String? = nil,
                folder: String? = nil, confidence: ClosedRange<Double>? = nil, classified: Range<Date>? = nil,
                imported: Range<Date>? = nil, taken: Range<Date>? = nil, model: ModelID? = nil, colours: [String]? = nil) {
        self.label = label
        self.corrected = corrected
        self.missing = missing
        self.pathPattern = pathPattern
        self.folder = folder
        self.confidence = confidence
        self.classified = classified
        self.imported = imported
        self.taken = taken
        self.model = model
        self.colours = colours
    }

    /// True when at most the label is chosen: what the trigger-kept counts per label answer.
    var choosesOnlyByLabel: Bool {
        var others = self
        others.label = nil
        return others == ImageSelection()
    }

    /// True when a condition reads the `images` table (`i`).
    var readsImages: Bool { imported != nil || taken != nil || colours != nil }

    /// The SQL conditions on `c` (current_classifications) and `i` (images), for either
    /// engine: `add` puts a value into the statement's arguments and returns its parameter's
    /// name, and `pathMatches` writes the test of a path against the GLOB pattern (SQLite's
    /// `GLOB`, PostgreSQL's regular expression). `labelColumn` is what the label is compared
    /// on (SQLite's gallery keeps it out of the index choice with `+c.effective_label`).
    func conditions(_ add: (_ value: any SQLBindable & PostgresBindable, _ name: String) -> String,
                    pathMatches: (_ pattern: String) -> String,
                    labelColumn: String = "c.effective_label") -> [String] {
        var conditions: [String] = []
        if let label {
            conditions.append("\(labelColumn) = \(add(label, "label"))")
        }
        if let corrected {
            conditions.append(corrected ? "c.corrected_label IS NOT NULL" : "c.corrected_label IS NULL")
        }
        if missing {
            conditions.append("NOT EXISTS (SELECT 1 FROM image_paths WHERE image_id = c.image_id AND missing = 0)")
        }
        if let pathPattern {
            conditions.append("c.image_id IN (SELECT image_id FROM image_paths WHERE "
                              + Self.forms(of: pathPattern).map(pathMatches).joined(separator: " OR ") + ")")
        }
        if let folder {
            // A range of the path's bytes ('0' follows '/'; COLLATE "C" on PostgreSQL): no
            // character of the folder's name can act as a pattern, and the path's index bounds the walk.
            let ranges = Self.forms(of: folder).map { "(path >= \(add($0 + "/", "folder")) AND path < \(add($0 + "0", "folder_end")))" }
            conditions.append("c.image_id IN (SELECT image_id FROM image_paths WHERE \(ranges.joined(separator: " OR ")))")
        }
        if let confidence {
            conditions.append("c.confidence BETWEEN \(add(confidence.lowerBound, "confidence_low")) "
                              + "AND \(add(confidence.upperBound, "confidence_high"))")
        }
        // A time in `range`, kept as milliseconds in `column`; the parameters are named for `name`.
        func within(_ range: Range<Date>?, _ column: String, _ name: String) {
            guard let range else { return }
            conditions.append("\(column) >= \(add(range.lowerBound.catalogueMilliseconds, name + "_from")) "
                              + "AND \(column) < \(add(range.upperBound.catalogueMilliseconds, name + "_to"))")
        }
        within(classified, "c.classified_at", "classified")
        within(imported, "i.first_imported", "imported")
        within(taken, "i.taken_at", "taken")
        if let model {
            conditions.append("c.model_id = \(add(model, "model"))")
        }
        if let colours {
            conditions.append("coalesce(i.person_colour, i.colour) IN (\(colours.map { add($0, "colour") }.joined(separator: ", ")))")
        }
        return conditions
    }
}

extension ImageSelection {
    /// `text` as given and in the other usual Unicode forms: `café` typed with é as one
    /// character chooses a file or folder whose name, copied from macOS, has e and U+0301, as
    /// they look the same everywhere (matched by bytes, it chose nothing).
    static func forms(of text: String) -> [String] {
        [text] + PathName.otherForms(of: text)
    }

    /// `conditions` in SQLite's SQL, each value added to `arguments`.
    func conditions(_ arguments: inout SQLArguments, labelColumn: String = "c.effective_label") -> [String] {
        conditions({ arguments.add($0, as: $1) }, pathMatches: { "path GLOB \(arguments.add($0, as: "pattern"))" },
                   labelColumn: labelColumn)
    }

    /// `conditions` in PostgreSQL's SQL, each value added to `arguments`: GLOB is a regular
    /// expression (`PostgresGlob`).
    func postgresConditions(_ arguments: inout PostgresArguments) -> [String] {
        conditions({ arguments.add($0, as: $1) },
                   pathMatches: { "path ~ \(arguments.add(PostgresGlob.regex($0), as: "pattern"))" })
    }
}

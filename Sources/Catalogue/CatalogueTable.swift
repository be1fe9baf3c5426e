/// A table of the catalogue's schema, as `copy` moves it whole: its name and the
/// columns of its primary key, the order in which both engines read its rows (text
/// keys byte by byte), so that a table's rows can be compared one by one across
/// engines. `all` is every table of both engines' schemas (a copy refuses a catalogue
/// with one it does not name), each after the tables it refers to.
public struct CatalogueTable: Sendable, Equatable {
    public let name: String
    let key: [String]
    /// False for the leases: a process's hold on work in the catalogue it works on. Carried,
    /// an import still running on the source held the copy's files from every import into
    /// the copy ("others read", and those files left out) though no process worked on it.
    let carriedByCopy: Bool

    init(_ name: String, key: [String], carriedByCopy: Bool = true) {
        self.name = name
        self.key = key
        self.carriedByCopy = carriedByCopy
    }

    public static let all: [CatalogueTable] = [
        CatalogueTable("images", key: ["id"]),
        CatalogueTable("retired_image_ids", key: ["highest"]),
        CatalogueTable("models", key: ["id"]),
        CatalogueTable("runs", key: ["id"]),
        CatalogueTable("image_paths", key: ["machine", "path"]),
        CatalogueTable("classifications", key: ["id"]),
        CatalogueTable("corrections", key: ["id"]),
        CatalogueTable("current_classifications", key: ["image_id"]),
        CatalogueTable("catalogue_counts", key: ["counted"]),
        CatalogueTable("label_counts", key: ["label"]),
        CatalogueTable("colour_counts", key: ["colour"]),
        CatalogueTable("images_being_forgotten", key: ["image_id"]),
        CatalogueTable("import_failures", key: ["id"]),
        CatalogueTable("failing_files", key: ["machine", "path"]),
        CatalogueTable("settings", key: ["key"]),
        CatalogueTable("model_adoptions", key: ["id"]),
        CatalogueTable("model_learned_images", key: ["model_id", "sha256"]),
        CatalogueTable("colour_corrections", key: ["id"]),
        CatalogueTable("dismissed_duplicates", key: ["image_id", "other_image_id"]),
        CatalogueTable("prepared_tensors", key: ["image_id", "recipe_name", "recipe_version"]),
        CatalogueTable("file_leases", key: ["machine", "path"], carriedByCopy: false),
        CatalogueTable("image_leases", key: ["image_id"], carriedByCopy: false),
    ]

    /// A column of a table, as a copy reads and writes it.
    public struct Column: Sendable, Equatable {
        public let name: String
        public let kind: Kind

        public enum Kind: Sendable, Equatable {
            case integer, real, text, bytes
        }
    }
}

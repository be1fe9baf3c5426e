import CommandLineKit

/// `--db`, for every command that opens the catalogue.
struct CatalogueOptions: ParsableArguments {
    @Option(name: "--db", value: "PATH",
            help: "The catalogue file (default: $WARDROBE_DB, else $XDG_DATA_HOME/wardrobe/catalogue.sqlite).",
            transform: ArgumentValues.cataloguePath)
    var path: String?
}

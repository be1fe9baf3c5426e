// The Catalogue module; see ../shared/DESIGN.md.

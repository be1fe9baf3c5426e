// The Wardrobe module; see ../shared/DESIGN.md.

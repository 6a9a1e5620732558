//! `products/<slug>.toml`: one file per product page. Checks each product, fills in its slug and illustration,
//! sorts them (vehicles first, then coverages, each by `order`) and checks the fixed numbers of each kind that the
//! menus, /products and /coverage-types are built for.

use std::collections::HashSet;
use std::path::Path;

use crate::fields::{check_count, check_description};
use crate::files::{file_stem, list_files, read_toml};
use crate::model::Product;
use crate::problems::Problems;

pub(crate) fn load(
    dir: &Path,
    images: &HashSet<&str>,
    insurance_types: &[String],
    problems: &mut Problems,
) -> Vec<Product> {
    let mut products = Vec::new();
    for file in list_files(dir, "toml", problems) {
        let Some(mut product) = read_toml::<Product>(&file, problems) else {
            continue;
        };
        product.slug = file_stem(&file);
        let p = &product;
        problems.check(
            ["vehicle", "coverage"].contains(&p.kind.as_str()),
            &file,
            || {
                format!(
                    "field `kind`: {:?} is neither \"vehicle\" nor \"coverage\"",
                    p.kind
                )
            },
        );
        check_count(
            "coverage_points",
            p.coverage_points.len(),
            8,
            "",
            &file,
            problems,
        );
        check_count("benefits", p.benefits.len(), 7, "", &file, problems);
        check_count("features", p.features.len(), 3, "", &file, problems);
        problems.check(
            insurance_types.contains(&p.insurance_type),
            &file,
            || {
                format!(
                    "field `insurance_type`: {:?} is not one of forms.toml's insurance types {insurance_types:?}",
                    p.insurance_type
                )
            },
        );
        problems.check(
            p.types.is_some() == p.types_heading.is_some(),
            &file,
            || "fields `types` and `types_heading` go together".into(),
        );
        if p.kind == "coverage" {
            problems.check(
                p.min_coverage.is_some() && p.required_by.is_some(),
                &file,
                || "a coverage needs `min_coverage` and `required_by`".into(),
            );
        }
        check_description(&p.description, "description", &file, problems);
        let image = format!("products/{}.svg", p.slug);
        problems.check(images.contains(image.as_str()), &file, || {
            format!("no illustration: content/images/{image} is missing")
        });
        product.image = image;
        products.push(product);
    }
    // Vehicles first, then coverages, each by `order`.
    products.sort_by_key(|p| (p.kind != "vehicle", p.order));
    for kind in ["vehicle", "coverage"] {
        let mut seen = HashSet::new();
        for p in products.iter().filter(|p| p.kind == kind) {
            if !seen.insert(p.order) {
                problems.add(
                    &dir.join(format!("{}.toml", p.slug)),
                    format!("field `order`: {} is used twice", p.order),
                );
            }
        }
    }
    check_counts(&products, dir, problems);
    products
}

/// The spec's fixed lists: the menus, /products and /coverage-types are built from these.
fn check_counts(products: &[Product], dir: &Path, problems: &mut Problems) {
    let vehicles = products.iter().filter(|p| p.kind == "vehicle").count();
    let coverages = products.iter().filter(|p| p.kind == "coverage");
    let on_products_page = coverages.clone().filter(|p| p.on_products_page).count();
    for (what, expected, found) in [
        ("vehicle types (`kind = \"vehicle\"`)", 7, vehicles),
        ("coverages (`kind = \"coverage\"`)", 9, coverages.count()),
        (
            "coverages shown on /products (`on_products_page = true`)",
            6,
            on_products_page,
        ),
    ] {
        problems.check(found == expected, dir, || {
            format!("expected {expected} {what}, found {found}")
        });
    }
}

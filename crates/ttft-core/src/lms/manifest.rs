//! `imsmanifest.xml` for the SCORM packages: SCORM 1.2 (IMS Content
//! Packaging 1.1.2 with ADL's `adlcp` extensions) and SCORM 2004 4th
//! edition (IMS CP 1.1.4 with `adlcp` 1.3 and IMS Simple Sequencing).
//!
//! **One SCO.** The package is one shareable content object holding every
//! part of the course, opening at the lesson. The graded work spans three
//! parts (the trace exercise, the configuration choice and the interview)
//! and the completion checklist sits in the lesson, while a SCO has one
//! score and one status: one SCO per part would either report the same
//! combined figure several times or split a grade the course gives as a
//! whole, and each SCO would get its own suspend data, so progress in one
//! part would not follow the learner into the next. The parts are named in
//! the description, from [`parts`].
//!
//! The passing threshold (`progress::PASS_AT`) is stated as 1.2's
//! `adlcp:masteryscore` and as 2004's primary objective measured by the
//! scaled score (`satisfiedByMeasure`, `minNormalizedMeasure`), which a
//! 2004 host hands back to the page as `cmi.scaled_passing_score`.
//!
//! What it deliberately does not do: list or read files (the caller passes
//! the file names), or ship the standards' XSD files, which are ADL's and
//! IMS's texts, not ours.

use crate::content::Lesson;
use crate::course_part::CoursePart;
use crate::lms::cmi::{passing_threshold, Standard};

/// The course's parts, in the order the manifest names them, and the first
/// of which the package opens at. The one place to repoint when the parts'
/// type changes.
pub fn parts() -> Vec<(&'static str, &'static str)> {
    CoursePart::ALL
        .into_iter()
        .chain(CoursePart::UNLISTED)
        .filter(|p| p.embeds())
        .map(|p| (p.id(), part_name(p)))
        .collect()
}

fn part_name(p: CoursePart) -> &'static str {
    match p {
        CoursePart::Lesson => "the lesson",
        CoursePart::Timeline => "the worked timeline",
        CoursePart::Trace => "the trace exercise",
        CoursePart::Choice => "the configuration choice",
        CoursePart::Interview => "the interview question with its self-score",
        CoursePart::Import => "reading your own trace file",
        CoursePart::Simulate => "the serving simulator",
        CoursePart::Author => "writing an exercise of your own",
    }
}

/// What goes into a manifest besides the course.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package<'a> {
    /// The app's version (`0.1.0`).
    pub version: &'a str,
    /// Every file of the package but the manifest, relative, with `/`.
    pub files: &'a [String],
}

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 cannot carry most control characters at all.
            c if c.is_control() && !matches!(c, '\n' | '\t') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The entry page, relative to the package's root.
pub const ENTRY: &str = "index.html";

/// The course's description: the lesson's summary, then its parts.
pub fn description(lesson: &Lesson) -> String {
    let names: Vec<&str> = parts().iter().map(|(_, n)| *n).collect();
    let listed = match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    format!(
        "{} It has {listed}. It reports one score for the graded work (the trace exercise, the configuration \
         choice, the interview self-score and its readiness rule) and is complete when the lesson's \
         checklist is ticked.",
        lesson.summary.trim(),
    )
}

/// The manifest for `standard`.
/// The course is named by its lesson's title and summary.
pub fn manifest(standard: Standard, lesson: &Lesson, package: &Package) -> String {
    let title = escape(&lesson.title);
    let description = escape(&description(lesson));
    let version = escape(package.version);
    let first = parts().first().map_or("lesson", |(id, _)| *id);
    let files: String = package
        .files
        .iter()
        .map(|f| format!("      <file href=\"{}\"/>\n", escape(f)))
        .collect();
    let threshold = passing_threshold(standard);
    match standard {
        Standard::Scorm12 => format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="ttft-lab-scorm12" version="{version}"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:imsmd="http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
    <imsmd:lom>
      <imsmd:general>
        <imsmd:title><imsmd:langstring xml:lang="en">{title}</imsmd:langstring></imsmd:title>
        <imsmd:description><imsmd:langstring xml:lang="en">{description}</imsmd:langstring></imsmd:description>
      </imsmd:general>
      <imsmd:lifecycle>
        <imsmd:version><imsmd:langstring xml:lang="en">{version}</imsmd:langstring></imsmd:version>
      </imsmd:lifecycle>
    </imsmd:lom>
  </metadata>
  <organizations default="ttft-lab-course">
    <organization identifier="ttft-lab-course">
      <title>{title}</title>
      <item identifier="ttft-lab-item" identifierref="ttft-lab-sco" isvisible="true">
        <title>{title}</title>
        <adlcp:masteryscore>{threshold}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="ttft-lab-sco" type="webcontent" adlcp:scormtype="sco" href="{ENTRY}">
{files}    </resource>
  </resources>
</manifest>
"#
        ),
        Standard::Scorm2004 => format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="ttft-lab-scorm2004" version="{version}"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:lom="http://ltsc.ieee.org/xsd/LOM"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd http://ltsc.ieee.org/xsd/LOM lom.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
    <lom:lom>
      <lom:general>
        <lom:title><lom:string language="en">{title}</lom:string></lom:title>
        <lom:description><lom:string language="en">{description}</lom:string></lom:description>
      </lom:general>
      <lom:lifeCycle>
        <lom:version><lom:string language="en">{version}</lom:string></lom:version>
      </lom:lifeCycle>
    </lom:lom>
  </metadata>
  <organizations default="ttft-lab-course">
    <organization identifier="ttft-lab-course">
      <title>{title}</title>
      <item identifier="ttft-lab-item" identifierref="ttft-lab-sco" parameters="?part={first}">
        <title>{title}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="ttft-lab-graded-work" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>{threshold}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
          <imsss:deliveryControls completionSetByContent="true" objectiveSetByContent="true"/>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="ttft-lab-sco" type="webcontent" adlcp:scormType="sco" href="{ENTRY}">
{files}    </resource>
  </resources>
</manifest>
"#
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lms::progress::tests::lesson;

    fn files() -> Vec<String> {
        ["index.html", "ttft-lab-1a2b_bg.wasm", "ttft-lab-1a2b.js", "exercises/a&b.json"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    }

    /// The element named `name` (in any namespace) under `node`.
    fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, name: &str) -> roxmltree::Node<'a, 'i> {
        node.children()
            .find(|c| c.tag_name().name() == name)
            .unwrap_or_else(|| panic!("no <{name}> under <{}>", node.tag_name().name()))
    }

    /// Parses the manifest and checks what IMS CP and SCORM require of it:
    /// the root's identifier and namespace, metadata naming the standard,
    /// a default organization that exists, with a titled item pointing at a
    /// resource that is a SCO with an href listed among its files.
    fn check(standard: Standard, namespace: &str, schema_version: &str, scorm_type: (&str, &str)) {
        let files = files();
        let text = manifest(standard, &lesson(), &Package { version: "0.1.0", files: &files });
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "manifest");
        assert_eq!(root.tag_name().namespace(), Some(namespace));
        assert!(root.attribute("identifier").is_some_and(|i| !i.is_empty()));
        let metadata = child(root, "metadata");
        assert_eq!(child(metadata, "schema").text(), Some("ADL SCORM"));
        assert_eq!(child(metadata, "schemaversion").text(), Some(schema_version));
        let orgs = child(root, "organizations");
        let default = orgs.attribute("default").unwrap();
        let org = orgs
            .children()
            .find(|o| o.attribute("identifier") == Some(default))
            .expect("the default organization exists");
        assert_eq!(child(org, "title").text(), Some(lesson().title.as_str()));
        let item = child(org, "item");
        assert!(child(item, "title").text().is_some());
        let resources = child(root, "resources");
        let sco = resources
            .children()
            .find(|r| r.attribute("identifier") == item.attribute("identifierref"))
            .expect("the item's resource exists");
        let ns = sco
            .attributes()
            .find(|a| a.name() == scorm_type.0)
            .map(|a| (a.namespace(), a.value()));
        assert_eq!(ns, Some((Some(scorm_type.1), "sco")));
        assert_eq!(sco.attribute("type"), Some("webcontent"));
        let listed: Vec<&str> = sco
            .children()
            .filter(|c| c.tag_name().name() == "file")
            .filter_map(|c| c.attribute("href"))
            .collect();
        assert_eq!(listed, files.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(listed.contains(&sco.attribute("href").unwrap()));
        for (_, name) in parts() {
            assert!(text.contains(name), "the parts are named: {name}");
        }
    }

    #[test]
    fn a_scorm_12_manifest() {
        check(
            Standard::Scorm12,
            "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
            "1.2",
            ("scormtype", "http://www.adlnet.org/xsd/adlcp_rootv1p2"),
        );
        let text = manifest(Standard::Scorm12, &lesson(), &Package { version: "1", files: &[] });
        assert!(text.contains("<adlcp:masteryscore>80</adlcp:masteryscore>"));
    }

    #[test]
    fn a_scorm_2004_manifest() {
        check(
            Standard::Scorm2004,
            "http://www.imsglobal.org/xsd/imscp_v1p1",
            "2004 4th Edition",
            ("scormType", "http://www.adlnet.org/xsd/adlcp_v1p3"),
        );
        let text = manifest(Standard::Scorm2004, &lesson(), &Package { version: "1", files: &[] });
        assert!(text.contains("<imsss:minNormalizedMeasure>0.8</imsss:minNormalizedMeasure>"));
        assert!(text.contains("parameters=\"?part=lesson\""));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\" 'd'>\u{1}"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt; ");
        assert_eq!(parts().first().map(|p| p.0), Some("lesson"));
    }
}

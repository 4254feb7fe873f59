#!/usr/bin/env bash
# Fails when npm knows of a high or critical advisory for an installed package. Run by .ci/run.
# Where the registry's audit endpoint does not answer (this workplace's mirror refuses it with
# 405), it says so loudly and checks nothing, rather than pretending the tree is clean.
set -uo pipefail
cd "$(dirname "$0")/.."
report=$(npm audit --json 2>/dev/null)
node -e '
  const report = JSON.parse(process.argv[1] || "{}");
  if (!report.metadata) {
    console.log(`WARNING: npm audit NOT CHECKED: the registry answered ${report.statusCode ?? "nothing usable"} (${report.message ?? "no report"}).`);
    process.exit(0);
  }
  const v = report.metadata.vulnerabilities;
  console.log(`npm audit: ${v.critical} critical, ${v.high} high, ${v.moderate} moderate, ${v.low} low`);
  if (v.critical + v.high > 0) {
    for (const [name, item] of Object.entries(report.vulnerabilities ?? {}))
      if (item.severity === "high" || item.severity === "critical") console.log(`  ${item.severity}: ${name}`);
    process.exit(1);
  }
' "$report"

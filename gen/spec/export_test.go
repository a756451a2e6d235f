package spec

import "strings"

// RuleInputs is every input of the rule tables, for FuzzParse's corpus (the
// fuzz test is in package spec_test because it imports gen/lower, which
// imports this package).
func RuleInputs() []string {
	out := []string{base}
	for _, c := range ruleCases {
		if strings.Count(base, c.old) == 1 {
			out = append(out, strings.Replace(base, c.old, c.new, 1))
		}
	}
	out = append(out, fp16Base)
	for _, c := range fp16Cases {
		if strings.Count(fp16Base, c.old) == 1 {
			out = append(out, strings.Replace(fp16Base, c.old, c.new, 1))
		}
	}
	out = append(out, stagedArchs, ladderBase)
	for _, c := range ladderCases {
		if strings.Count(ladderBase, c.old) == 1 {
			out = append(out, strings.Replace(ladderBase, c.old, c.new, 1))
		}
	}
	return out
}

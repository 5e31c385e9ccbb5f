// compose-config prints a compose project as `docker compose config --format json` does, without
// Docker: it loads the files with compose-go, the loader docker compose itself uses, so the file
// is checked against the Compose Specification's schema, `include`s and merge keys are resolved,
// `${VAR:-default}` and `${VAR:?message}` are interpolated from the environment and the env files
// (`.env` beside the first file unless --env-file names others), and references between services,
// volumes and networks are checked. An invalid project is named on stderr with exit status 1.
//
//	compose-config -f docker-compose.yml [-f more.yml] [--env-file .env] [--profile name]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
)

type repeated []string

func (values *repeated) String() string { return strings.Join(*values, ",") }

func (values *repeated) Set(value string) error {
	*values = append(*values, value)
	return nil
}

func main() {
	var files, envFiles, profiles repeated
	flag.Var(&files, "f", "compose file (repeatable)")
	flag.Var(&envFiles, "env-file", "env file instead of .env beside the first compose file (repeatable)")
	flag.Var(&profiles, "profile", "profile to enable (repeatable)")
	projectName := flag.String("p", "platform", "project name")
	flag.Parse()
	if len(files) == 0 {
		fmt.Fprintln(os.Stderr, "compose-config: name at least one compose file with -f")
		os.Exit(2)
	}
	if err := printConfig(files, envFiles, profiles, *projectName); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func printConfig(files, envFiles, profiles []string, projectName string) error {
	// The same options, in the same order, as docker compose's own command line.
	options, err := cli.NewProjectOptions(files,
		cli.WithOsEnv,
		cli.WithEnvFiles(envFiles...),
		cli.WithDotEnv,
		cli.WithDefaultProfiles(profiles...),
		cli.WithName(projectName),
	)
	if err != nil {
		return err
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		return err
	}
	out, err := project.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(append(out, '\n'))
	return err
}

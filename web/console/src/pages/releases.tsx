import { useQuery } from 'urql';
import { graphql } from '../gql';
import { Empty, ErrorNote, formatBytes, linkable, Loading, Table, When } from '../ui';

const Releases = graphql(`
  query ConsoleReleases {
    me {
      isAdmin
    }
    desktop: releaseManifest(product: "desktop") {
      ...ConsoleRelease
    }
    core: releaseManifest(product: "core") {
      ...ConsoleRelease
    }
  }

  fragment ConsoleRelease on ReleaseManifestNode {
    product
    version
    pubDate
    notes
    files {
      filename
      platform
      arch
      size
      sha256
      url
    }
  }
`);

/** Administrators only (the service refuses the whole document otherwise): every version's files with their download counts. */
const Counts = graphql(`
  query ConsoleReleaseCounts {
    desktopFiles: releaseFiles(product: "desktop") {
      ...ConsoleReleaseCounts
    }
    coreFiles: releaseFiles(product: "core") {
      ...ConsoleReleaseCounts
    }
  }

  fragment ConsoleReleaseCounts on ReleaseFileStatsNode {
    version
    filename
    size
    sha256
    downloads
    createdAt
  }
`);

const PRODUCTS = [
  { key: 'desktop', title: 'Desktop app' },
  { key: 'core', title: 'Core (CLI and agent runtime)' },
] as const;

/** Each product's current release with its files and checksums; for administrators, every version's download counts. */
export function ReleasesPage() {
  const [{ data, error, fetching }] = useQuery({ query: Releases });
  const [counted] = useQuery({ query: Counts, pause: !data?.me.isAdmin });
  return (
    <>
      <h1>Releases</h1>
      <ErrorNote error={error ?? counted.error} />
      {!data && fetching && <Loading what="releases" />}
      {data &&
        PRODUCTS.map(({ key, title }) => {
          const release = data[key];
          const counts = key === 'desktop' ? counted.data?.desktopFiles : counted.data?.coreFiles;
          return (
            <section key={key} aria-labelledby={`release-${key}`}>
              <h2 id={`release-${key}`}>{title}</h2>
              {!release ? (
                <Empty>
                  <p>
                    No {key} release is published yet. Publishing is done with the release token (PUT /admin/api/release/{key}/manifest).
                  </p>
                </Empty>
              ) : (
                <>
                  <p>
                    Version <strong>{release.version}</strong>, published <When at={release.pubDate} />.{' '}
                    <span className="muted">
                      Feed: <code>/admin/api/public/app/{key}/manifest</code>
                    </span>
                  </p>
                  {release.notes && <p className="text">{release.notes}</p>}
                  <Table>
                    <thead>
                      <tr>
                        <th scope="col">File</th>
                        <th scope="col">Platform</th>
                        <th scope="col">Size</th>
                        <th scope="col">SHA-256</th>
                      </tr>
                    </thead>
                    <tbody>
                      {release.files.map((file) => (
                        <tr key={file.filename}>
                          <td>
                            {linkable(file.url) ? (
                              <a href={file.url} rel="noopener noreferrer">
                                {file.filename}
                              </a>
                            ) : (
                              file.filename
                            )}
                          </td>
                          <td>{[file.platform, file.arch].filter(Boolean).join(' ') || '—'}</td>
                          <td>{formatBytes(file.size)}</td>
                          <td>
                            <code className="hash">{file.sha256}</code>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                </>
              )}
              {counts && counts.length > 0 && (
                <>
                  <h3>Downloads by file</h3>
                  <Table>
                    <thead>
                      <tr>
                        <th scope="col">Version</th>
                        <th scope="col">File</th>
                        <th scope="col">Size</th>
                        <th scope="col">Downloads</th>
                        <th scope="col">Uploaded</th>
                      </tr>
                    </thead>
                    <tbody>
                      {counts.map((file) => (
                        <tr key={`${file.version}/${file.filename}`}>
                          <td>{file.version}</td>
                          <td>{file.filename}</td>
                          <td>{formatBytes(file.size)}</td>
                          <td>{file.downloads.toLocaleString()}</td>
                          <td>
                            <When at={file.createdAt} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                </>
              )}
            </section>
          );
        })}
    </>
  );
}

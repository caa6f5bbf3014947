// Every call that spec section 7 lists answers at its path as written there, with and without
// a trailing slash: none of them meets the 404 of an unknown route (`请求的接口不存在`).
// Earlier paths of the same calls stay as aliases.
import { call, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Spec section 7, in its order; `{id}` and the like become ids that exist or not, which does not matter here. */
const SPEC_CALLS: [Method, string][] = [
  ['POST', '/api/login'],
  ['POST', '/api/login/LoginWithDingtalk?code=x&appId=y'],
  ['POST', '/api/login/ResetPassword'],
  ['POST', '/api/account/changepassword'],
  ['PUT', '/api/account/avatar'],
  ['POST', '/api/login/quit'],
  ['POST', '/api/login/TotpBind'],
  ['POST', '/api/login/TotpCode'],
  ['POST', '/api/User/Register'],
  ['POST', '/api/User/Register/SendVerifyCode/?phone=13800000000'],
  ['GET', '/api/Login/PasswordPolicy'],
  ['GET', '/api/User/Organizations/Departments/Tree'],
  ['GET', '/api/User/Organizations/Groups'],
  ['GET', '/api/User/Organizations/Users'],
  ['GET', '/api/EnvironmentConfig'],
  ['GET', '/api/User/GlobalPolicies/FeaturePolicy'],
  ['GET', '/api/User/FileTransfer/FileUploadOptions'],
  ['POST', '/api/User/FileTransfer/CheckAndCreateFileInfo'],
  ['POST', '/api/User/FileTransfer/UploadRapid2'],
  ['POST', '/api/User/FileTransfer/UploadChunk2?fileId=x&ChunkHash=y&RelativePath=z'],
  ['POST', '/api/User/FileTransfer/UploadMerge2'],
  ['POST', '/api/User/FileTransfer/External/s1/CheckAndCreateFileInfo'],
  ['POST', '/api/User/FileTransfer/External/s1/UploadRapid2'],
  ['POST', '/api/User/FileTransfer/External/s1/UploadMerge2'],
  ['POST', '/api/User/FileTransfer/External/s1/UploadChunk2'],
  ['GET', '/api/User/Folders/Personal/RootFolders'],
  ['GET', '/api/User/Folders/PersonalRoot/FolderTree'],
  ['GET', '/api/User/Folders/Public/RootFolders'],
  ['GET', '/api/User/Folders/PublicRoot/FolderTree'],
  ['GET', '/api/User/Folders/{root}/Items'],
  ['GET', '/api/User/Folders/{root}/TreeNodes'],
  ['POST', '/api/User/Files/CreateFile'],
  ['PUT', '/api/User/Files/Rename/{root}?fileName=x'],
  ['DELETE', '/api/User/Files'],
  ['GET', '/api/User/Files/{root}'],
  ['GET', '/api/User/Files/{root}/Versions'],
  ['POST', '/api/User/Files/{root}/VersionRollback/1'],
  ['POST', '/api/User/Files/Versions/1/SetMaster?isMaster=true'],
  ['DELETE', '/api/User/Files/Versions/1'],
  ['POST', '/api/User/Files/Copy'],
  ['POST', '/api/User/Files/Move'],
  ['POST', '/api/User/Folders/Shortcuts'],
  ['POST', '/api/User/Folders/{root}/SizeCalc'],
  ['POST', '/api/User/Folders/SetSort?folderId=1&targetId=2&position=1'],
  ['GET', '/api/User/Files/Actions?extension=pdf'],
  ['POST', '/api/User/FileTransfer/DownloadTask'],
  ['GET', '/api/User/FileTransfer/DownloadTasks/x/Status'],
  ['POST', '/api/User/FileTransfer/External/s1/DownloadTask'],
  ['GET', '/api/User/FileTransfer/Download/{root}'],
  ['GET', '/api/User/FileTransfer/ExternalDownload/1?urlKey=s1&accessKey=k'],
  ['POST', '/api/User/FileTransfer/CreateComponentData'],
  ['POST', '/api/Ferry/FerryFiles/PreviewInProcessing'],
  ['GET', '/api/Account/PersonalRootUsed'],
  ['GET', '/api/Account/PersonalRootPolicy'],
  ['GET', '/api/User/FileAccessPolicies/FilePermissions'],
  ['GET', '/api/User/FileAccessPolicies/FolderPermission'],
  ['GET', '/api/User/FileAccessPolicies/{root}/Policies?validOnly=true'],
  ['POST', '/api/User/FileAccessPolicies/Policies'],
  ['POST', '/api/User/FileAccessPolicies/Calc'],
  ['GET', '/api/User/Search/Content?keyword=abc'],
  ['GET', '/api/User/Search/Files?keyword=abc'],
  ['GET', '/api/User/Favorites/Categories'],
  ['POST', '/api/User/Favorites/Categories'],
  ['DELETE', '/api/User/Favorites/Categories/1'],
  ['GET', '/api/User/Favorites/-1'],
  ['POST', '/api/User/Favorites'],
  ['PUT', '/api/User/Favorites/Move'],
  ['DELETE', '/api/User/Favorites'],
];

/** The earlier paths, kept as aliases of the spec's. */
const ALIASES: [Method, string][] = [
  ['GET', '/api/User/Folders/Personal/FolderTree'],
  ['GET', '/api/User/Folders/Public/FolderTree'],
  ['POST', '/api/User/Register/SendVerifyCode?phone=13800000000'],
];

describe.each(databaseKinds())("the spec's calls at their written paths (%s)", (kind) => {
  let server: TestServer;
  let token: string;
  let root: string;

  beforeAll(async () => {
    server = await startServer(kind);
    token = (await login(server.app)).token;
    root = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const withSlash = (url: string) => {
    const q = url.indexOf('?');
    return q < 0 ? `${url}/` : `${url.slice(0, q)}/${url.slice(q)}`;
  };
  const withoutSlash = (url: string) => url.replace(/\/(\?|$)/, '$1');

  test.each([...SPEC_CALLS, ...ALIASES])('%s %s answers, with and without a trailing slash', async (method, written) => {
    const url = written.replace('{root}', root);
    for (const variant of new Set([url, withSlash(withoutSlash(url)), withoutSlash(url)])) {
      // signing out would end the session the other calls use
      const auth = variant.startsWith('/api/login/quit') ? {} : { token };
      const res = await call(server.app, method, variant, { ...auth, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
      expect({ variant, unknownRoute: res.status === 404 && res.body?.message === '请求的接口不存在' }).toEqual({ variant, unknownRoute: false });
    }
  });

  test('the personal space tree answers the same at the spec path and at its alias', async () => {
    const spec = await ok(server.app, 'GET', '/api/User/Folders/PersonalRoot/FolderTree', { token });
    expect(await ok(server.app, 'GET', '/api/User/Folders/Personal/FolderTree/', { token })).toEqual(spec);
    expect(spec[0].id).toBe(root);
  });

  test('a web path keeps its trailing slash', async () => {
    const res = await call(server.app, 'GET', '/remotes/files');
    expect(res.status).toBe(302);
  });
});

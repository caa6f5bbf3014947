// The 云文档 composition root: one instance of each service, wired together.
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import type { Database } from './db/types';
import { createTimeFormatter } from './lib/time';
import { OperationLog } from './modules/oplog/service';
import { AdminService } from './modules/admin/service';
import { PeopleService } from './modules/people/service';
import { PeopleImport } from './modules/people/import';
import { LeaverHandover } from './modules/people/leavers';
import { DirectoryService, directoryDown, directoryOff } from './modules/directory/service';
import { DirectorySync } from './modules/directory/sync';
import { DirectoryUnavailable } from './modules/directory/ldap';
import { DingTalkDirectory } from './modules/directory/dingtalk';
import { AuthService } from './modules/auth/service';
import { Credentials } from './modules/auth/credentials';
import { AccountService } from './modules/account/service';
import { AppPasswordsService } from './modules/app-passwords/service';
import { AvatarStore } from './modules/account/avatars';
import { RegistrationService } from './modules/registration/service';
import { OAuthService } from './modules/oauth/service';
import { LogSmsSender } from './modules/registration/sms';
import { SecretBox } from './lib/secret-box';
import { Instances } from './modules/instances/service';
import { RightsService } from './modules/folders/rights';
import { ArrangeService } from './modules/folders/arrange';
import { FoldersService } from './modules/folders/service';
import { ShortcutsService } from './modules/folders/shortcuts';
import { OrganizationsService } from './modules/organizations/service';
import { PoliciesService } from './modules/policies/service';
import { RecycleService } from './modules/recycle/service';
import { SettingsService } from './modules/settings/service';
import { BrandingService } from './modules/branding/service';
import { AgreementsService } from './modules/agreements/service';
import { SharesService } from './modules/shares/service';
import { UsersService } from './modules/users/service';
import { DownloadsService } from './modules/downloads/service';
import { createObjectStore } from './modules/storage';
import { DavChunkedUploads } from './modules/webdav/chunked-uploads';
import { BlobStore } from './modules/versions/blobs';
import { DEFAULT_UPLOAD_LIMITS, UploadsService } from './modules/uploads/service';
import { ObjectChunks } from './modules/uploads/object-chunks';
import { NoticeDispatcher } from './modules/notices/dispatcher';
import { NoticesService } from './modules/notices/service';
import { MailSettingsService } from './modules/notice-delivery/mail-settings';
import { NoticeSender } from './modules/notice-delivery/sender';
import { MailChannel } from './modules/notice-delivery/mail-channel';
import { DingTalkChannel } from './modules/notice-delivery/dingtalk-channel';
import { offeredChannels, type OutsideChannel } from './modules/notice-delivery/channels';
import { NoticePreferencesService } from './modules/notice-delivery/service';
import { PasswordExpiryNotices } from './modules/notices/password-expiry';
import { AnnouncementsService } from './modules/announcements/service';
import { JobLeases } from './lib/job-lease';
import { DiskSpace } from './lib/disk-space';
import { QuotaService } from './modules/quota/service';
import { Staging } from './modules/uploads/staging';
import { VersionsService } from './modules/versions/service';
import { WebService } from './modules/web/service';
import { WorkflowService } from './modules/workflow/service';
import { AutoReminder } from './modules/workflow/auto-remind';
import { createScanner } from './modules/ferry/antivirus';
import { FerryInbox } from './modules/ferry/inbox';
import { FerryReport } from './modules/ferry/report';
import { FERRY_SOURCE, FerryService } from './modules/ferry/service';
import { FavoritesService } from './modules/favorites/service';
import { ItemMarks } from './modules/tags/marks';
import { TagsService } from './modules/tags/service';
import { SearchService } from './modules/search/service';
import { ContentIndex } from './modules/search/content';
import { OfficeConverter } from './modules/preview/converter';
import { PreviewConversions } from './modules/preview/conversions';
import { PreviewService } from './modules/preview/service';
import { makeThumbnail, makeView } from './modules/preview/images';

export function createServices(db: Kysely<Database>, config: AppConfig) {
  const formatTime = createTimeFormatter(config.tzName);
  const settings = new SettingsService(db, config.mode);
  const organizations = new OrganizationsService(db);
  const rights = new RightsService(db);
  const objects = createObjectStore(config);
  const blobs = new BlobStore(objects);
  const folders = new FoldersService(db, settings, formatTime, rights, blobs);
  const versions = new VersionsService(db, folders, blobs, formatTime);
  const shortcuts = new ShortcutsService(db, folders);
  const arrange = new ArrangeService(db, folders);
  const recycle = new RecycleService(db, folders, formatTime, config.recycleRetentionDays);
  const policies = new PoliciesService(db, folders, settings, formatTime);
  const credentials = new Credentials(db, settings);
  const users = new UsersService(db, settings, organizations, folders, credentials, config.databaseUrl ? 4 : 1);
  const box = SecretBox.load(config.secretKey, config.dataDir);
  const auth = new AuthService(db, users, config, credentials, box);
  const account = new AccountService(db, credentials, new AvatarStore(objects), formatTime);
  const appPasswords = new AppPasswordsService(db, auth, formatTime);
  const registration = new RegistrationService(db, users, credentials, new LogSmsSender(db), formatTime);
  const oauth = new OAuthService(db, config, formatTime);
  const admin = new AdminService(db, settings, organizations);
  const people = new PeopleService(db, users, auth, settings, organizations, credentials);
  const peopleImport = new PeopleImport(db, users, organizations, credentials, auth);
  const leavers = new LeaverHandover(db, () => ({ people, auth, settings, folders, workflow, shares, ferry, formatTime }));
  const directory = new DirectoryService(db, box, new DirectorySync(db, users, organizations, auth));
  const instances = new Instances(db, config, box);
  if (config.dingtalk) {
    const contacts = new DingTalkDirectory(config.dingtalk);
    directory.dingtalk = { appKey: config.dingtalk.appKey, people: (root) => contacts.people(root) };
  }
  auth.useDirectory(async (userName, password) => {
    if (!(await directory.ldapEnabled())) throw directoryOff();
    try {
      return await directory.ldap.authenticate(userName, password);
    } catch (err) {
      if (err instanceof DirectoryUnavailable) throw directoryDown();
      throw err;
    }
  });
  const web = new WebService(config, settings);
  const downloads = new DownloadsService(db, folders, blobs, objects);
  const shares = new SharesService(db, folders, settings, formatTime, config.tzName);
  const disk = new DiskSpace(config.dataDir, config.uploads.minFreeBytes, config.uploads.diskWarnPercent);
  const uploads = new UploadsService(
    db,
    folders,
    settings,
    rights,
    blobs,
    new Staging(path.join(config.dataDir, 'uploads')),
    { ...DEFAULT_UPLOAD_LIMITS, maxOpenSessions: config.uploads.maxOpenSessions, maxPendingBytes: config.uploads.maxPendingBytes },
    disk,
    // in S3 a chunk is an object any instance can reach; locally, the staging file as before
    objects.kind === 's3' ? new ObjectChunks(db, objects, path.join(config.dataDir, 'tmp', 'upload-parts')) : null,
  );
  const quota = new QuotaService(db, settings, disk, () => uploads.limits.sessionTtlMs, config.databaseUrl ? 'postgres' : 'sqlite');
  const workflow = new WorkflowService(db, folders, blobs, formatTime, config.tzName);
  const ferry = new FerryService(db, config, folders, workflow, blobs, formatTime, createScanner(config.ferry));
  const ferryInbox = new FerryInbox(db, config, ferry, blobs, formatTime);
  const ferryReport = new FerryReport(db, formatTime, config.tzName, config.ferry.zone);
  workflow.onEnd(FERRY_SOURCE, (end) => ferry.onApprovalEnd(end));
  folders.useMarks(new ItemMarks(db));
  const favorites = new FavoritesService(db, folders, formatTime);
  const tags = new TagsService(db, folders);
  const search = new SearchService(db, config.databaseUrl ? 'postgres' : 'sqlite', folders, tags, config.tzName);
  const converter = new OfficeConverter(config.preview.soffice, path.join(config.dataDir, 'tmp', 'convert'), config.preview.timeoutMs);
  const conversions = new PreviewConversions(
    db,
    blobs,
    {
      pdf: { available: converter.available, workers: config.preview.workers, output: 'pdf', leaseMs: config.preview.timeoutMs + 60_000, make: (s, e, t) => converter.toPdf(s, e, t) },
      thumb: { available: true, workers: 2, output: 'webp', leaseMs: 120_000, make: (s, _e, t) => makeThumbnail(s, t) },
      view: { available: true, workers: 1, output: 'webp', leaseMs: 300_000, make: (s, _e, t) => makeView(s, t) },
    },
    objects,
    path.join(config.dataDir, 'tmp', 'preview'),
  );
  const preview = new PreviewService(db, folders, shares, settings, blobs, conversions, formatTime);
  const notices = new NoticesService(db, formatTime);
  // 通知设置 and the deliveries of the notices by mail and DingTalk 工作通知 (notice-delivery/)
  const channels = offeredChannels(config.dingtalk);
  const dispatcher = new NoticeDispatcher(db, new JobLeases(db), channels.filter((c): c is OutsideChannel => c !== 'inApp'));
  const noticeMail = new MailSettingsService(db, box, settings);
  const noticePreferences = new NoticePreferencesService(db, formatTime, channels);
  const noticeMailer = new NoticeSender(db, new JobLeases(db), new MailChannel(noticeMail, formatTime), config.tzName);
  // without DINGTALK_AGENT_ID it only closes what an earlier configuration left waiting (skipped)
  const noticeDingTalk = new NoticeSender(db, new JobLeases(db), new DingTalkChannel(db, config.dingtalk, noticeMail, formatTime), config.tzName);
  const autoRemind = new AutoReminder(db, workflow, new JobLeases(db));
  workflow.afterChange(() => dispatcher.nudge());
  shares.afterShare = () => dispatcher.nudge();
  const passwordExpiry = new PasswordExpiryNotices(db, new JobLeases(db), () => settings.passwordPolicy(), formatTime);
  const announcements = new AnnouncementsService(db, formatTime, () => dispatcher.nudge());
  const oplog = new OperationLog(db, new JobLeases(db), formatTime, config.tzName, config.oplogRetentionDays, config.oplogRecording);
  // WebDAV's chunked uploads (Nextcloud's protocol): their parts in the store
  const davUploads = new DavChunkedUploads(db, objects);
  return {
    objects,
    davUploads,
    instances,
    formatTime,
    account,
    appPasswords,
    registration,
    oauth,
    settings,
    branding: new BrandingService(settings, objects),
    agreements: new AgreementsService(db),
    organizations,
    rights,
    folders,
    versions,
    shortcuts,
    arrange,
    recycle,
    policies,
    users,
    auth,
    admin,
    people,
    peopleImport,
    leavers,
    directory,
    web,
    downloads,
    shares,
    uploads,
    disk,
    quota,
    workflow,
    ferry,
    ferryInbox,
    ferryReport,
    favorites,
    tags,
    search,
    preview,
    contentIndex: new ContentIndex(db, blobs),
    notices,
    dispatcher,
    noticeMail,
    noticePreferences,
    noticeMailer,
    noticeDingTalk,
    passwordExpiry,
    announcements,
    autoRemind,
    oplog,
  };
}

export type Services = ReturnType<typeof createServices>;

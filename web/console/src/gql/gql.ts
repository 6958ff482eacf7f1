/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ConsoleMe {\n    me {\n      id\n      name\n      email\n      isAdmin\n    }\n  }\n": typeof types.ConsoleMeDocument,
    "\n  mutation ConsoleSignOut {\n    authLogout\n  }\n": typeof types.ConsoleSignOutDocument,
    "\n  query ConsoleAccount {\n    me {\n      id\n      name\n      email\n      planCode\n      planExpiresAt\n      effectiveTier\n      storageUsedBytes\n      storageQuotaBytes\n      hasPassword\n    }\n  }\n": typeof types.ConsoleAccountDocument,
    "\n  query ConsoleMySessions {\n    mySessions {\n      id\n      current\n      userAgent\n      address\n      method\n      createdAt\n      lastSeenAt\n    }\n  }\n": typeof types.ConsoleMySessionsDocument,
    "\n  query ConsoleMyTokens {\n    myTokens(limit: 500) {\n      total\n      items {\n        tokenId\n        label\n        createdAt\n        expiresAt\n        revokedAt\n        lastUsedAt\n      }\n    }\n  }\n": typeof types.ConsoleMyTokensDocument,
    "\n  mutation ConsoleSetPassword($input: PasswordSetInput!) {\n    setPassword(input: $input)\n  }\n": typeof types.ConsoleSetPasswordDocument,
    "\n  mutation ConsoleRevokeSession($sessionId: ID!) {\n    revokeSession(sessionId: $sessionId)\n  }\n": typeof types.ConsoleRevokeSessionDocument,
    "\n  mutation ConsoleRevokeOtherSessions {\n    revokeOtherSessions\n  }\n": typeof types.ConsoleRevokeOtherSessionsDocument,
    "\n  mutation ConsoleMyTokenCreate($input: TokenCreateInput!) {\n    myTokenCreate(input: $input) {\n      tokenId\n      token\n    }\n  }\n": typeof types.ConsoleMyTokenCreateDocument,
    "\n  mutation ConsoleMyTokenRevoke($tokenId: ID!) {\n    myTokenRevoke(tokenId: $tokenId)\n  }\n": typeof types.ConsoleMyTokenRevokeDocument,
    "\n  query ConsoleAdminStats {\n    adminStats {\n      generatedAt\n      onlineUsers\n      dau\n      wau\n      mau\n      registrations {\n        today\n        total\n      }\n      plans {\n        planCode\n        activeUsers\n      }\n      llm {\n        last5m {\n          calls\n          users\n          tokensIn\n          tokensOut\n        }\n        last1h {\n          calls\n          users\n          tokensIn\n          tokensOut\n        }\n      }\n    }\n  }\n": typeof types.ConsoleAdminStatsDocument,
    "\n  query ConsoleAdminUsers($q: String, $offset: Int, $limit: Int) {\n    adminUsers(q: $q, offset: $offset, limit: $limit) {\n      total\n      offset\n      limit\n      items {\n        id\n        name\n        email\n        planCode\n        isAdmin\n        disabled\n        lastActiveAt\n      }\n    }\n  }\n": typeof types.ConsoleAdminUsersDocument,
    "\n  mutation ConsoleAdminUserUpdate($id: ID!, $input: UserUpdateInput!) {\n    adminUserUpdate(id: $id, input: $input) {\n      id\n      disabled\n    }\n  }\n": typeof types.ConsoleAdminUserUpdateDocument,
    "\n  mutation ConsoleAdminPasswordLink($userId: ID!) {\n    passwordLink(userId: $userId) {\n      url\n      expiresAt\n      mailed\n    }\n  }\n": typeof types.ConsoleAdminPasswordLinkDocument,
    "\n  mutation ConsoleAdminUserCreate($input: UserCreateInput!) {\n    adminUserCreate(input: $input) {\n      id\n      name\n    }\n  }\n": typeof types.ConsoleAdminUserCreateDocument,
    "\n  mutation ConsoleAdminTokenCreate($userId: ID!, $input: TokenCreateInput!) {\n    adminTokenCreate(userId: $userId, input: $input) {\n      token\n    }\n  }\n": typeof types.ConsoleAdminTokenCreateDocument,
    "\n  query ConsoleAdminUserTokens($userId: ID!, $offset: Int, $limit: Int) {\n    adminUserTokens(userId: $userId, offset: $offset, limit: $limit) {\n      total\n      items {\n        tokenId\n        label\n        createdAt\n        expiresAt\n        revokedAt\n      }\n    }\n  }\n": typeof types.ConsoleAdminUserTokensDocument,
    "\n  mutation ConsoleAdminTokenRevoke($userId: ID!, $tokenId: ID!) {\n    adminTokenRevoke(userId: $userId, tokenId: $tokenId)\n  }\n": typeof types.ConsoleAdminTokenRevokeDocument,
    "\n  query ConsoleAdminLabs($q: String, $offset: Int, $limit: Int) {\n    adminLabs(q: $q, offset: $offset, limit: $limit) {\n      total\n      items {\n        id\n        name\n        status\n        seatQuota\n        seatsUsed\n        createdAt\n      }\n    }\n  }\n": typeof types.ConsoleAdminLabsDocument,
    "\n  mutation ConsoleAdminLabUpdate($id: ID!, $input: LabAdminUpdateInput!) {\n    adminLabUpdate(id: $id, input: $input) {\n      id\n      status\n      seatQuota\n    }\n  }\n": typeof types.ConsoleAdminLabUpdateDocument,
    "\n  query ConsoleAdminTrajectories($q: String) {\n    adminTrajectories(q: $q, limit: 100) {\n      total\n      items {\n        sessionId\n        title\n        owner {\n          name\n          email\n        }\n        source\n        count\n        bytes\n        updatedAt\n      }\n    }\n  }\n": typeof types.ConsoleAdminTrajectoriesDocument,
    "\n  query ConsoleAdminStorage {\n    adminStorageSummary {\n      totalBytes\n      users {\n        userId\n        email\n        usedBytes\n        quotaBytes\n        sessions\n      }\n      labs {\n        labId\n        name\n        bytes\n        sessions\n      }\n    }\n  }\n": typeof types.ConsoleAdminStorageDocument,
    "\n  query ConsoleAdminSegmentation {\n    adminSegmentation(limit: 20) {\n      domain\n      users\n      paid\n      granted\n      byTier {\n        tier\n        users\n        paid\n        granted\n      }\n      byType {\n        type\n        users\n        paid\n        granted\n      }\n      byInstitution {\n        name\n        users\n        paid\n        granted\n      }\n    }\n  }\n": typeof types.ConsoleAdminSegmentationDocument,
    "\n  query ConsoleA2aTask($id: ID!) {\n    a2aTask(id: $id, historyLength: 100) {\n      id\n      contextId\n      caller {\n        ...ConsoleA2aCaller\n      }\n      historyTimes {\n        messageId\n        sentAt\n      }\n      status {\n        state\n        timestamp\n        message {\n          parts {\n            text\n          }\n        }\n      }\n      history {\n        messageId\n        role\n        metadata\n        parts {\n          text\n          data\n          filename\n          mediaType\n        }\n      }\n      artifacts {\n        artifactId\n        name\n        description\n        parts {\n          text\n          filename\n          mediaType\n        }\n      }\n    }\n  }\n": typeof types.ConsoleA2aTaskDocument,
    "\n  subscription ConsoleA2aTaskEvents($id: ID!) {\n    a2aTaskEvents(taskId: $id, refuseTerminal: false) {\n      statusUpdate {\n        status {\n          state\n        }\n      }\n      artifactUpdate {\n        artifact {\n          artifactId\n        }\n      }\n    }\n  }\n": typeof types.ConsoleA2aTaskEventsDocument,
    "\n  mutation ConsoleA2aApprovalAnswer($taskId: ID!, $decision: A2aApprovalDecision!) {\n    a2aApprovalAnswer(taskId: $taskId, decision: $decision) {\n      id\n      status {\n        state\n      }\n    }\n  }\n": typeof types.ConsoleA2aApprovalAnswerDocument,
    "\n  query ConsoleA2aAccess {\n    a2aViewerCan {\n      useWebTools\n    }\n  }\n": typeof types.ConsoleA2aAccessDocument,
    "\n  query ConsoleA2aKeys {\n    a2aKeys {\n      id\n      label\n      createdAt\n      revokedAt\n    }\n  }\n": typeof types.ConsoleA2aKeysDocument,
    "\n  mutation ConsoleA2aKeyCreate($label: String!) {\n    a2aKeyCreate(label: $label) {\n      secret\n      key {\n        id\n        label\n      }\n    }\n  }\n": typeof types.ConsoleA2aKeyCreateDocument,
    "\n  mutation ConsoleA2aKeyRevoke($id: ID!) {\n    a2aKeyRevoke(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": typeof types.ConsoleA2aKeyRevokeDocument,
    "\n  query ConsoleA2aTasks($first: Int, $after: String, $state: A2aTaskState) {\n    a2aTasks(first: $first, after: $after, state: $state) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        contextId\n        status {\n          state\n          timestamp\n        }\n        caller {\n          ...ConsoleA2aCaller\n        }\n      }\n    }\n  }\n": typeof types.ConsoleA2aTasksDocument,
    "\n  query ConsoleOutboundAgents {\n    a2aAgents {\n      id\n      name\n      url\n      enabled\n      status\n      error\n      checkedAt\n    }\n  }\n": typeof types.ConsoleOutboundAgentsDocument,
    "\n  mutation ConsoleOutboundAgentAdd($input: A2aAgentCreateInput!) {\n    a2aAgentCreate(input: $input) {\n      id\n    }\n  }\n": typeof types.ConsoleOutboundAgentAddDocument,
    "\n  mutation ConsoleOutboundAgentUpdate($id: ID!, $input: A2aAgentUpdateInput!) {\n    a2aAgentUpdate(id: $id, input: $input) {\n      id\n      enabled\n    }\n  }\n": typeof types.ConsoleOutboundAgentUpdateDocument,
    "\n  mutation ConsoleOutboundAgentTest($id: ID!) {\n    a2aAgentTest(id: $id) {\n      ok\n      name\n      error\n    }\n  }\n": typeof types.ConsoleOutboundAgentTestDocument,
    "\n  mutation ConsoleOutboundAgentRemove($id: ID!) {\n    a2aAgentDelete(id: $id) {\n      id\n    }\n  }\n": typeof types.ConsoleOutboundAgentRemoveDocument,
    "\n  fragment ConsoleA2aCaller on A2aTaskCaller {\n    keyLabel\n    keyRevokedAt\n    openEndpoint\n    ownerName\n  }\n": typeof types.ConsoleA2aCallerFragmentDoc,
    "\n  query ConsoleAuditEvents($actor: String, $action: String, $since: DateTimeISO, $offset: Int, $limit: Int) {\n    adminAuditEvents(actor: $actor, action: $action, since: $since, offset: $offset, limit: $limit) {\n      total\n      items {\n        id\n        action\n        createdAt\n        actor {\n          userId\n          name\n          email\n        }\n        subject {\n          userId\n          name\n          email\n        }\n        lab {\n          labId\n          name\n        }\n        detail\n      }\n    }\n  }\n": typeof types.ConsoleAuditEventsDocument,
    "\n  query ConsoleCompute {\n    computeCredits {\n      balanceCredits\n      reservedCredits\n      tokenLine {\n        credits\n        tokensIn\n        tokensOut\n      }\n      leases {\n        leaseId\n        goal\n        state\n        provider\n        createdAt\n        idleExpiresAt\n        bootstrapDeadline\n        releasedAt\n        ceilingCredits\n        spentCredits\n        machine {\n          cpus\n          memoryGb\n          gpu\n          rateCreditsPerMinute\n        }\n        idleRefreshes {\n          at\n          idleExpiresAt\n        }\n      }\n    }\n    computePlanCurrent {\n      planId\n      goal\n      steps\n      status\n      createdAt\n      estimatedCredits\n      estimatedMinutes\n      spendCeilingCredits\n      tokenCharge {\n        credits\n      }\n      machine {\n        cpus\n        memoryGb\n        gpu\n        rateCreditsPerMinute\n      }\n    }\n  }\n": typeof types.ConsoleComputeDocument,
    "\n  query ConsoleComputePast($first: Int!, $after: String) {\n    computeSessionsPast(first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n      }\n      nodes {\n        leaseId\n        goal\n        state\n        provider\n        createdAt\n        bootstrapDeadline\n        releasedAt\n        endReason\n        ceilingCredits\n        spentCredits\n        machine {\n          cpus\n          memoryGb\n          gpu\n          rateCreditsPerMinute\n        }\n        idleRefreshes {\n          at\n          idleExpiresAt\n        }\n      }\n    }\n  }\n": typeof types.ConsoleComputePastDocument,
    "\n  subscription ConsoleLeaseChanged($leaseId: Int!) {\n    computeLeaseChanged(leaseId: $leaseId) {\n      leaseId\n      state\n      spentCredits\n      ceilingCredits\n      idleExpiresAt\n      at\n    }\n  }\n": typeof types.ConsoleLeaseChangedDocument,
    "\n  mutation ConsolePlanApprove($planId: Int!) {\n    computePlanApprove(planId: $planId) {\n      leaseId\n      provider\n      claimToken\n      createdAt\n      bootstrapDeadline\n    }\n  }\n": typeof types.ConsolePlanApproveDocument,
    "\n  mutation ConsolePlanDecline($planId: Int!) {\n    computePlanDecline(planId: $planId) {\n      planId\n      status\n    }\n  }\n": typeof types.ConsolePlanDeclineDocument,
    "\n  mutation ConsoleLeaseRelease($leaseId: Int!) {\n    computeSessionRelease(leaseId: $leaseId) {\n      leaseId\n      state\n    }\n  }\n": typeof types.ConsoleLeaseReleaseDocument,
    "\n  mutation ConsoleLeaseTopUp($leaseId: Int!, $input: TopUpInput!) {\n    computeSessionTopUp(leaseId: $leaseId, input: $input) {\n      leaseId\n      ceilingCredits\n    }\n  }\n": typeof types.ConsoleLeaseTopUpDocument,
    "\n  query ConsoleLabUsage($labId: ID!, $days: Int!) {\n    labUsage(labId: $labId) {\n      totals {\n        activeMembers\n        sessions\n        tokensIn\n        tokensOut\n      }\n      members {\n        memberUserId\n        name\n        status\n        sessions\n        tokensIn\n        tokensOut\n      }\n      daily(days: $days) {\n        day\n        sessions\n        tokensIn\n        tokensOut\n      }\n    }\n  }\n": typeof types.ConsoleLabUsageDocument,
    "\n  query ConsoleLab($id: ID!) {\n    lab(id: $id) {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n      invitationCode\n      codeExpiresAt\n      viewerCan {\n        rotateCode\n        manageMembers\n        viewUsage\n      }\n      members {\n        memberUserId\n        name\n        email\n        role\n        status\n        requestedAt\n        joinedAt\n      }\n    }\n    labBoard(labId: $id, limit: 20) {\n      items {\n        sessionId\n        title\n        ownerName\n        state\n        count\n        lastActivityAt\n        openAnnotations\n      }\n    }\n  }\n": typeof types.ConsoleLabDocument,
    "\n  subscription ConsoleLabMemberEvents($labId: ID!) {\n    labMemberEvents(labId: $labId) {\n      memberUserId\n      status\n    }\n  }\n": typeof types.ConsoleLabMemberEventsDocument,
    "\n  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {\n    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {\n      memberUserId\n      role\n      status\n    }\n  }\n": typeof types.ConsoleLabMemberUpdateDocument,
    "\n  mutation ConsoleLabRotateCode($labId: ID!) {\n    labRotateCode(labId: $labId) {\n      id\n      invitationCode\n      codeExpiresAt\n    }\n  }\n": typeof types.ConsoleLabRotateCodeDocument,
    "\n  query ConsoleLabs {\n    labs {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n    }\n    labJoinRequests {\n      labName\n      requestedAt\n    }\n  }\n": typeof types.ConsoleLabsDocument,
    "\n  mutation ConsoleLabCreate($input: LabCreateInput!) {\n    labCreate(input: $input) {\n      id\n    }\n  }\n": typeof types.ConsoleLabCreateDocument,
    "\n  mutation ConsoleLabJoin($input: LabJoinInput!) {\n    labJoin(input: $input) {\n      labId\n      status\n    }\n  }\n": typeof types.ConsoleLabJoinDocument,
    "\n  query ConsoleReleases {\n    me {\n      isAdmin\n    }\n    desktop: releaseManifest(product: \"desktop\") {\n      ...ConsoleRelease\n    }\n    core: releaseManifest(product: \"core\") {\n      ...ConsoleRelease\n    }\n  }\n\n  fragment ConsoleRelease on ReleaseManifestNode {\n    product\n    version\n    pubDate\n    notes\n    files {\n      filename\n      platform\n      arch\n      size\n      sha256\n      url\n    }\n  }\n": typeof types.ConsoleReleasesDocument,
    "\n  query ConsoleReleaseCounts {\n    desktopFiles: releaseFiles(product: \"desktop\") {\n      ...ConsoleReleaseCounts\n    }\n    coreFiles: releaseFiles(product: \"core\") {\n      ...ConsoleReleaseCounts\n    }\n  }\n\n  fragment ConsoleReleaseCounts on ReleaseFileStatsNode {\n    version\n    filename\n    size\n    sha256\n    downloads\n    createdAt\n  }\n": typeof types.ConsoleReleaseCountsDocument,
    "\n  query ConsoleShared($token: String!) {\n    sharedTrajectory(token: $token) {\n      title\n      source\n      recordCount\n      createdAt\n      updatedAt\n      expiresAt\n      maskEmails\n    }\n  }\n": typeof types.ConsoleSharedDocument,
    "\n  query ConsoleSharedRecords($token: String!, $after: Int, $first: Int) {\n    sharedTrajectoryRecords(token: $token, after: $after, first: $first) {\n      hasMore\n      items {\n        seq\n        text\n        masked\n      }\n    }\n  }\n": typeof types.ConsoleSharedRecordsDocument,
    "\n  query ConsoleTrajectories($labId: ID, $owner: ID, $source: String, $sharedOnly: Boolean, $includeArchived: Boolean) {\n    trajectories(labId: $labId, owner: $owner, source: $source, sharedOnly: $sharedOnly, includeArchived: $includeArchived, limit: 500) {\n      total\n      items {\n        sessionId\n        title\n        owner {\n          userId\n          name\n        }\n        source\n        visibility\n        count\n        openAnnotations\n        updatedAt\n        archivedAt\n      }\n    }\n    me {\n      id\n    }\n    labs {\n      id\n      name\n      members {\n        memberUserId\n        name\n        status\n      }\n    }\n  }\n": typeof types.ConsoleTrajectoriesDocument,
    "\n  query ConsoleTrajectorySummary($id: ID!) {\n    trajectorySummary(sessionId: $id) {\n      enabled\n      reason\n      status\n      stale\n      error\n      summary {\n        text\n        generatedAt\n      }\n    }\n  }\n": typeof types.ConsoleTrajectorySummaryDocument,
    "\n  mutation ConsoleSummaryRefresh($id: ID!) {\n    trajectorySummaryRefresh(sessionId: $id) {\n      status\n    }\n  }\n": typeof types.ConsoleSummaryRefreshDocument,
    "\n  mutation ConsoleCritique($id: ID!) {\n    trajectoryCritique(sessionId: $id) {\n      findings {\n        recordUuid\n        recordSeq\n        severity\n        body\n      }\n    }\n  }\n": typeof types.ConsoleCritiqueDocument,
    "\n  subscription ConsoleDiscuss($id: ID!, $input: DiscussInput!) {\n    trajectoryDiscussStream(sessionId: $id, input: $input) {\n      delta\n      done {\n        answer\n      }\n    }\n  }\n": typeof types.ConsoleDiscussDocument,
    "\n  query ConsoleCompareParent($id: ID!) {\n    trajectoryMeta(sessionId: $id) {\n      sessionId\n      title\n      forkedFrom {\n        parent {\n          sessionId\n          title\n        }\n      }\n    }\n  }\n": typeof types.ConsoleCompareParentDocument,
    "\n  fragment CompareSide on DiffSide {\n    sessionId\n    title\n    records\n    toolCalls\n    errors\n    tokens {\n      input\n      output\n    }\n  }\n": typeof types.CompareSideFragmentDoc,
    "\n  query ConsoleTrajectoryDiff($base: ID!, $other: ID!, $from: Int, $first: Int) {\n    trajectoryDiff(base: $base, other: $other, from: $from, first: $first) {\n      total\n      from\n      hasMore\n      counts {\n        same\n        changed\n        removed\n        added\n      }\n      divergence {\n        index\n        baseSeq\n        otherSeq\n      }\n      base {\n        ...CompareSide\n      }\n      other {\n        ...CompareSide\n      }\n      rows {\n        index\n        kind\n        baseSeq\n        otherSeq\n        baseText\n        otherText\n        segments {\n          kind\n          text\n        }\n      }\n    }\n  }\n": typeof types.ConsoleTrajectoryDiffDocument,
    "\n  query ConsoleTrajectorySearch($q: String!, $offset: Int) {\n    trajectorySearch(q: $q, limit: 20, offset: $offset) {\n      total\n      offset\n      items {\n        sessionId\n        title\n        ownerName\n        seq\n        uuid\n        snippet\n      }\n    }\n  }\n": typeof types.ConsoleTrajectorySearchDocument,
    "\n  query ConsoleShareLinks($id: ID!) {\n    trajectoryShareLinks(sessionId: $id) {\n      linkId\n      open\n      views\n      lastViewedAt\n      expiresAt\n      revokedAt\n      maskEmails\n      createdAt\n      createdBy {\n        name\n      }\n    }\n  }\n": typeof types.ConsoleShareLinksDocument,
    "\n  mutation ConsoleShareLinkCreate($id: ID!, $input: ShareLinkInput) {\n    trajectoryShareLinkCreate(sessionId: $id, input: $input) {\n      url\n      link {\n        linkId\n      }\n    }\n  }\n": typeof types.ConsoleShareLinkCreateDocument,
    "\n  mutation ConsoleShareLinkRevoke($linkId: ID!) {\n    trajectoryShareLinkRevoke(linkId: $linkId) {\n      linkId\n      open\n      revokedAt\n    }\n  }\n": typeof types.ConsoleShareLinkRevokeDocument,
    "\n  query ConsoleTrajectory($id: ID!) {\n    me {\n      id\n    }\n    trajectoryMeta(sessionId: $id) {\n      sessionId\n      title\n      owner {\n        userId\n        name\n      }\n      viewerCan {\n        annotate\n        resolve\n        fork\n        changeVisibility\n        refreshSummary\n        share\n      }\n      labId\n      visibility\n      count\n      source\n      createdAt\n      updatedAt\n      openAnnotations\n      tokens {\n        input\n        output\n      }\n      forkedFrom {\n        sessionId\n        seq\n        parent {\n          sessionId\n          title\n          owner {\n            name\n          }\n        }\n      }\n    }\n    trajectoryAnnotations(sessionId: $id) {\n      items {\n        annotationId\n        author {\n          userId\n          name\n        }\n        body\n        createdAt\n        recordUuid\n        replyTo\n        status\n        resolvedAt\n      }\n    }\n    labs {\n      id\n      name\n    }\n  }\n": typeof types.ConsoleTrajectoryDocument,
    "\n  query ConsoleTrajectoryRecords($id: ID!, $after: Int, $first: Int) {\n    trajectoryRecords(sessionId: $id, after: $after, first: $first) {\n      hasMore\n      items {\n        seq\n        text\n      }\n    }\n  }\n": typeof types.ConsoleTrajectoryRecordsDocument,
    "\n  query ConsoleTrajectoryFind($id: ID!, $text: String!) {\n    trajectoryFind(sessionId: $id, text: $text) {\n      seqs\n      total\n    }\n  }\n": typeof types.ConsoleTrajectoryFindDocument,
    "\n  subscription ConsoleRecordsAppended($id: ID!) {\n    trajectoryRecordsAppended(sessionId: $id) {\n      count\n      records\n    }\n  }\n": typeof types.ConsoleRecordsAppendedDocument,
    "\n  mutation ConsoleAnnotate($id: ID!, $input: AnnotationInput!) {\n    trajectoryAnnotate(sessionId: $id, input: $input) {\n      annotationId\n    }\n  }\n": typeof types.ConsoleAnnotateDocument,
    "\n  mutation ConsoleAnnotationResolve($id: ID!, $annotationId: ID!) {\n    trajectoryAnnotationResolve(sessionId: $id, annotationId: $annotationId) {\n      annotationId\n      status\n    }\n  }\n": typeof types.ConsoleAnnotationResolveDocument,
    "\n  mutation ConsoleFork($id: ID!, $input: ForkInput!) {\n    trajectoryFork(sessionId: $id, input: $input) {\n      sessionId\n    }\n  }\n": typeof types.ConsoleForkDocument,
    "\n  mutation ConsoleVisibility($id: ID!, $input: VisibilityInput!) {\n    trajectoryVisibilitySet(sessionId: $id, input: $input) {\n      sessionId\n      visibility\n      labId\n    }\n  }\n": typeof types.ConsoleVisibilityDocument,
    "\n  query ConsoleFigureUrl($id: ID!, $path: String!) {\n    trajectoryFigureUrl(sessionId: $id, path: $path)\n  }\n": typeof types.ConsoleFigureUrlDocument,
};
const documents: Documents = {
    "\n  query ConsoleMe {\n    me {\n      id\n      name\n      email\n      isAdmin\n    }\n  }\n": types.ConsoleMeDocument,
    "\n  mutation ConsoleSignOut {\n    authLogout\n  }\n": types.ConsoleSignOutDocument,
    "\n  query ConsoleAccount {\n    me {\n      id\n      name\n      email\n      planCode\n      planExpiresAt\n      effectiveTier\n      storageUsedBytes\n      storageQuotaBytes\n      hasPassword\n    }\n  }\n": types.ConsoleAccountDocument,
    "\n  query ConsoleMySessions {\n    mySessions {\n      id\n      current\n      userAgent\n      address\n      method\n      createdAt\n      lastSeenAt\n    }\n  }\n": types.ConsoleMySessionsDocument,
    "\n  query ConsoleMyTokens {\n    myTokens(limit: 500) {\n      total\n      items {\n        tokenId\n        label\n        createdAt\n        expiresAt\n        revokedAt\n        lastUsedAt\n      }\n    }\n  }\n": types.ConsoleMyTokensDocument,
    "\n  mutation ConsoleSetPassword($input: PasswordSetInput!) {\n    setPassword(input: $input)\n  }\n": types.ConsoleSetPasswordDocument,
    "\n  mutation ConsoleRevokeSession($sessionId: ID!) {\n    revokeSession(sessionId: $sessionId)\n  }\n": types.ConsoleRevokeSessionDocument,
    "\n  mutation ConsoleRevokeOtherSessions {\n    revokeOtherSessions\n  }\n": types.ConsoleRevokeOtherSessionsDocument,
    "\n  mutation ConsoleMyTokenCreate($input: TokenCreateInput!) {\n    myTokenCreate(input: $input) {\n      tokenId\n      token\n    }\n  }\n": types.ConsoleMyTokenCreateDocument,
    "\n  mutation ConsoleMyTokenRevoke($tokenId: ID!) {\n    myTokenRevoke(tokenId: $tokenId)\n  }\n": types.ConsoleMyTokenRevokeDocument,
    "\n  query ConsoleAdminStats {\n    adminStats {\n      generatedAt\n      onlineUsers\n      dau\n      wau\n      mau\n      registrations {\n        today\n        total\n      }\n      plans {\n        planCode\n        activeUsers\n      }\n      llm {\n        last5m {\n          calls\n          users\n          tokensIn\n          tokensOut\n        }\n        last1h {\n          calls\n          users\n          tokensIn\n          tokensOut\n        }\n      }\n    }\n  }\n": types.ConsoleAdminStatsDocument,
    "\n  query ConsoleAdminUsers($q: String, $offset: Int, $limit: Int) {\n    adminUsers(q: $q, offset: $offset, limit: $limit) {\n      total\n      offset\n      limit\n      items {\n        id\n        name\n        email\n        planCode\n        isAdmin\n        disabled\n        lastActiveAt\n      }\n    }\n  }\n": types.ConsoleAdminUsersDocument,
    "\n  mutation ConsoleAdminUserUpdate($id: ID!, $input: UserUpdateInput!) {\n    adminUserUpdate(id: $id, input: $input) {\n      id\n      disabled\n    }\n  }\n": types.ConsoleAdminUserUpdateDocument,
    "\n  mutation ConsoleAdminPasswordLink($userId: ID!) {\n    passwordLink(userId: $userId) {\n      url\n      expiresAt\n      mailed\n    }\n  }\n": types.ConsoleAdminPasswordLinkDocument,
    "\n  mutation ConsoleAdminUserCreate($input: UserCreateInput!) {\n    adminUserCreate(input: $input) {\n      id\n      name\n    }\n  }\n": types.ConsoleAdminUserCreateDocument,
    "\n  mutation ConsoleAdminTokenCreate($userId: ID!, $input: TokenCreateInput!) {\n    adminTokenCreate(userId: $userId, input: $input) {\n      token\n    }\n  }\n": types.ConsoleAdminTokenCreateDocument,
    "\n  query ConsoleAdminUserTokens($userId: ID!, $offset: Int, $limit: Int) {\n    adminUserTokens(userId: $userId, offset: $offset, limit: $limit) {\n      total\n      items {\n        tokenId\n        label\n        createdAt\n        expiresAt\n        revokedAt\n      }\n    }\n  }\n": types.ConsoleAdminUserTokensDocument,
    "\n  mutation ConsoleAdminTokenRevoke($userId: ID!, $tokenId: ID!) {\n    adminTokenRevoke(userId: $userId, tokenId: $tokenId)\n  }\n": types.ConsoleAdminTokenRevokeDocument,
    "\n  query ConsoleAdminLabs($q: String, $offset: Int, $limit: Int) {\n    adminLabs(q: $q, offset: $offset, limit: $limit) {\n      total\n      items {\n        id\n        name\n        status\n        seatQuota\n        seatsUsed\n        createdAt\n      }\n    }\n  }\n": types.ConsoleAdminLabsDocument,
    "\n  mutation ConsoleAdminLabUpdate($id: ID!, $input: LabAdminUpdateInput!) {\n    adminLabUpdate(id: $id, input: $input) {\n      id\n      status\n      seatQuota\n    }\n  }\n": types.ConsoleAdminLabUpdateDocument,
    "\n  query ConsoleAdminTrajectories($q: String) {\n    adminTrajectories(q: $q, limit: 100) {\n      total\n      items {\n        sessionId\n        title\n        owner {\n          name\n          email\n        }\n        source\n        count\n        bytes\n        updatedAt\n      }\n    }\n  }\n": types.ConsoleAdminTrajectoriesDocument,
    "\n  query ConsoleAdminStorage {\n    adminStorageSummary {\n      totalBytes\n      users {\n        userId\n        email\n        usedBytes\n        quotaBytes\n        sessions\n      }\n      labs {\n        labId\n        name\n        bytes\n        sessions\n      }\n    }\n  }\n": types.ConsoleAdminStorageDocument,
    "\n  query ConsoleAdminSegmentation {\n    adminSegmentation(limit: 20) {\n      domain\n      users\n      paid\n      granted\n      byTier {\n        tier\n        users\n        paid\n        granted\n      }\n      byType {\n        type\n        users\n        paid\n        granted\n      }\n      byInstitution {\n        name\n        users\n        paid\n        granted\n      }\n    }\n  }\n": types.ConsoleAdminSegmentationDocument,
    "\n  query ConsoleA2aTask($id: ID!) {\n    a2aTask(id: $id, historyLength: 100) {\n      id\n      contextId\n      caller {\n        ...ConsoleA2aCaller\n      }\n      historyTimes {\n        messageId\n        sentAt\n      }\n      status {\n        state\n        timestamp\n        message {\n          parts {\n            text\n          }\n        }\n      }\n      history {\n        messageId\n        role\n        metadata\n        parts {\n          text\n          data\n          filename\n          mediaType\n        }\n      }\n      artifacts {\n        artifactId\n        name\n        description\n        parts {\n          text\n          filename\n          mediaType\n        }\n      }\n    }\n  }\n": types.ConsoleA2aTaskDocument,
    "\n  subscription ConsoleA2aTaskEvents($id: ID!) {\n    a2aTaskEvents(taskId: $id, refuseTerminal: false) {\n      statusUpdate {\n        status {\n          state\n        }\n      }\n      artifactUpdate {\n        artifact {\n          artifactId\n        }\n      }\n    }\n  }\n": types.ConsoleA2aTaskEventsDocument,
    "\n  mutation ConsoleA2aApprovalAnswer($taskId: ID!, $decision: A2aApprovalDecision!) {\n    a2aApprovalAnswer(taskId: $taskId, decision: $decision) {\n      id\n      status {\n        state\n      }\n    }\n  }\n": types.ConsoleA2aApprovalAnswerDocument,
    "\n  query ConsoleA2aAccess {\n    a2aViewerCan {\n      useWebTools\n    }\n  }\n": types.ConsoleA2aAccessDocument,
    "\n  query ConsoleA2aKeys {\n    a2aKeys {\n      id\n      label\n      createdAt\n      revokedAt\n    }\n  }\n": types.ConsoleA2aKeysDocument,
    "\n  mutation ConsoleA2aKeyCreate($label: String!) {\n    a2aKeyCreate(label: $label) {\n      secret\n      key {\n        id\n        label\n      }\n    }\n  }\n": types.ConsoleA2aKeyCreateDocument,
    "\n  mutation ConsoleA2aKeyRevoke($id: ID!) {\n    a2aKeyRevoke(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": types.ConsoleA2aKeyRevokeDocument,
    "\n  query ConsoleA2aTasks($first: Int, $after: String, $state: A2aTaskState) {\n    a2aTasks(first: $first, after: $after, state: $state) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        contextId\n        status {\n          state\n          timestamp\n        }\n        caller {\n          ...ConsoleA2aCaller\n        }\n      }\n    }\n  }\n": types.ConsoleA2aTasksDocument,
    "\n  query ConsoleOutboundAgents {\n    a2aAgents {\n      id\n      name\n      url\n      enabled\n      status\n      error\n      checkedAt\n    }\n  }\n": types.ConsoleOutboundAgentsDocument,
    "\n  mutation ConsoleOutboundAgentAdd($input: A2aAgentCreateInput!) {\n    a2aAgentCreate(input: $input) {\n      id\n    }\n  }\n": types.ConsoleOutboundAgentAddDocument,
    "\n  mutation ConsoleOutboundAgentUpdate($id: ID!, $input: A2aAgentUpdateInput!) {\n    a2aAgentUpdate(id: $id, input: $input) {\n      id\n      enabled\n    }\n  }\n": types.ConsoleOutboundAgentUpdateDocument,
    "\n  mutation ConsoleOutboundAgentTest($id: ID!) {\n    a2aAgentTest(id: $id) {\n      ok\n      name\n      error\n    }\n  }\n": types.ConsoleOutboundAgentTestDocument,
    "\n  mutation ConsoleOutboundAgentRemove($id: ID!) {\n    a2aAgentDelete(id: $id) {\n      id\n    }\n  }\n": types.ConsoleOutboundAgentRemoveDocument,
    "\n  fragment ConsoleA2aCaller on A2aTaskCaller {\n    keyLabel\n    keyRevokedAt\n    openEndpoint\n    ownerName\n  }\n": types.ConsoleA2aCallerFragmentDoc,
    "\n  query ConsoleAuditEvents($actor: String, $action: String, $since: DateTimeISO, $offset: Int, $limit: Int) {\n    adminAuditEvents(actor: $actor, action: $action, since: $since, offset: $offset, limit: $limit) {\n      total\n      items {\n        id\n        action\n        createdAt\n        actor {\n          userId\n          name\n          email\n        }\n        subject {\n          userId\n          name\n          email\n        }\n        lab {\n          labId\n          name\n        }\n        detail\n      }\n    }\n  }\n": types.ConsoleAuditEventsDocument,
    "\n  query ConsoleCompute {\n    computeCredits {\n      balanceCredits\n      reservedCredits\n      tokenLine {\n        credits\n        tokensIn\n        tokensOut\n      }\n      leases {\n        leaseId\n        goal\n        state\n        provider\n        createdAt\n        idleExpiresAt\n        bootstrapDeadline\n        releasedAt\n        ceilingCredits\n        spentCredits\n        machine {\n          cpus\n          memoryGb\n          gpu\n          rateCreditsPerMinute\n        }\n        idleRefreshes {\n          at\n          idleExpiresAt\n        }\n      }\n    }\n    computePlanCurrent {\n      planId\n      goal\n      steps\n      status\n      createdAt\n      estimatedCredits\n      estimatedMinutes\n      spendCeilingCredits\n      tokenCharge {\n        credits\n      }\n      machine {\n        cpus\n        memoryGb\n        gpu\n        rateCreditsPerMinute\n      }\n    }\n  }\n": types.ConsoleComputeDocument,
    "\n  query ConsoleComputePast($first: Int!, $after: String) {\n    computeSessionsPast(first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n      }\n      nodes {\n        leaseId\n        goal\n        state\n        provider\n        createdAt\n        bootstrapDeadline\n        releasedAt\n        endReason\n        ceilingCredits\n        spentCredits\n        machine {\n          cpus\n          memoryGb\n          gpu\n          rateCreditsPerMinute\n        }\n        idleRefreshes {\n          at\n          idleExpiresAt\n        }\n      }\n    }\n  }\n": types.ConsoleComputePastDocument,
    "\n  subscription ConsoleLeaseChanged($leaseId: Int!) {\n    computeLeaseChanged(leaseId: $leaseId) {\n      leaseId\n      state\n      spentCredits\n      ceilingCredits\n      idleExpiresAt\n      at\n    }\n  }\n": types.ConsoleLeaseChangedDocument,
    "\n  mutation ConsolePlanApprove($planId: Int!) {\n    computePlanApprove(planId: $planId) {\n      leaseId\n      provider\n      claimToken\n      createdAt\n      bootstrapDeadline\n    }\n  }\n": types.ConsolePlanApproveDocument,
    "\n  mutation ConsolePlanDecline($planId: Int!) {\n    computePlanDecline(planId: $planId) {\n      planId\n      status\n    }\n  }\n": types.ConsolePlanDeclineDocument,
    "\n  mutation ConsoleLeaseRelease($leaseId: Int!) {\n    computeSessionRelease(leaseId: $leaseId) {\n      leaseId\n      state\n    }\n  }\n": types.ConsoleLeaseReleaseDocument,
    "\n  mutation ConsoleLeaseTopUp($leaseId: Int!, $input: TopUpInput!) {\n    computeSessionTopUp(leaseId: $leaseId, input: $input) {\n      leaseId\n      ceilingCredits\n    }\n  }\n": types.ConsoleLeaseTopUpDocument,
    "\n  query ConsoleLabUsage($labId: ID!, $days: Int!) {\n    labUsage(labId: $labId) {\n      totals {\n        activeMembers\n        sessions\n        tokensIn\n        tokensOut\n      }\n      members {\n        memberUserId\n        name\n        status\n        sessions\n        tokensIn\n        tokensOut\n      }\n      daily(days: $days) {\n        day\n        sessions\n        tokensIn\n        tokensOut\n      }\n    }\n  }\n": types.ConsoleLabUsageDocument,
    "\n  query ConsoleLab($id: ID!) {\n    lab(id: $id) {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n      invitationCode\n      codeExpiresAt\n      viewerCan {\n        rotateCode\n        manageMembers\n        viewUsage\n      }\n      members {\n        memberUserId\n        name\n        email\n        role\n        status\n        requestedAt\n        joinedAt\n      }\n    }\n    labBoard(labId: $id, limit: 20) {\n      items {\n        sessionId\n        title\n        ownerName\n        state\n        count\n        lastActivityAt\n        openAnnotations\n      }\n    }\n  }\n": types.ConsoleLabDocument,
    "\n  subscription ConsoleLabMemberEvents($labId: ID!) {\n    labMemberEvents(labId: $labId) {\n      memberUserId\n      status\n    }\n  }\n": types.ConsoleLabMemberEventsDocument,
    "\n  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {\n    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {\n      memberUserId\n      role\n      status\n    }\n  }\n": types.ConsoleLabMemberUpdateDocument,
    "\n  mutation ConsoleLabRotateCode($labId: ID!) {\n    labRotateCode(labId: $labId) {\n      id\n      invitationCode\n      codeExpiresAt\n    }\n  }\n": types.ConsoleLabRotateCodeDocument,
    "\n  query ConsoleLabs {\n    labs {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n    }\n    labJoinRequests {\n      labName\n      requestedAt\n    }\n  }\n": types.ConsoleLabsDocument,
    "\n  mutation ConsoleLabCreate($input: LabCreateInput!) {\n    labCreate(input: $input) {\n      id\n    }\n  }\n": types.ConsoleLabCreateDocument,
    "\n  mutation ConsoleLabJoin($input: LabJoinInput!) {\n    labJoin(input: $input) {\n      labId\n      status\n    }\n  }\n": types.ConsoleLabJoinDocument,
    "\n  query ConsoleReleases {\n    me {\n      isAdmin\n    }\n    desktop: releaseManifest(product: \"desktop\") {\n      ...ConsoleRelease\n    }\n    core: releaseManifest(product: \"core\") {\n      ...ConsoleRelease\n    }\n  }\n\n  fragment ConsoleRelease on ReleaseManifestNode {\n    product\n    version\n    pubDate\n    notes\n    files {\n      filename\n      platform\n      arch\n      size\n      sha256\n      url\n    }\n  }\n": types.ConsoleReleasesDocument,
    "\n  query ConsoleReleaseCounts {\n    desktopFiles: releaseFiles(product: \"desktop\") {\n      ...ConsoleReleaseCounts\n    }\n    coreFiles: releaseFiles(product: \"core\") {\n      ...ConsoleReleaseCounts\n    }\n  }\n\n  fragment ConsoleReleaseCounts on ReleaseFileStatsNode {\n    version\n    filename\n    size\n    sha256\n    downloads\n    createdAt\n  }\n": types.ConsoleReleaseCountsDocument,
    "\n  query ConsoleShared($token: String!) {\n    sharedTrajectory(token: $token) {\n      title\n      source\n      recordCount\n      createdAt\n      updatedAt\n      expiresAt\n      maskEmails\n    }\n  }\n": types.ConsoleSharedDocument,
    "\n  query ConsoleSharedRecords($token: String!, $after: Int, $first: Int) {\n    sharedTrajectoryRecords(token: $token, after: $after, first: $first) {\n      hasMore\n      items {\n        seq\n        text\n        masked\n      }\n    }\n  }\n": types.ConsoleSharedRecordsDocument,
    "\n  query ConsoleTrajectories($labId: ID, $owner: ID, $source: String, $sharedOnly: Boolean, $includeArchived: Boolean) {\n    trajectories(labId: $labId, owner: $owner, source: $source, sharedOnly: $sharedOnly, includeArchived: $includeArchived, limit: 500) {\n      total\n      items {\n        sessionId\n        title\n        owner {\n          userId\n          name\n        }\n        source\n        visibility\n        count\n        openAnnotations\n        updatedAt\n        archivedAt\n      }\n    }\n    me {\n      id\n    }\n    labs {\n      id\n      name\n      members {\n        memberUserId\n        name\n        status\n      }\n    }\n  }\n": types.ConsoleTrajectoriesDocument,
    "\n  query ConsoleTrajectorySummary($id: ID!) {\n    trajectorySummary(sessionId: $id) {\n      enabled\n      reason\n      status\n      stale\n      error\n      summary {\n        text\n        generatedAt\n      }\n    }\n  }\n": types.ConsoleTrajectorySummaryDocument,
    "\n  mutation ConsoleSummaryRefresh($id: ID!) {\n    trajectorySummaryRefresh(sessionId: $id) {\n      status\n    }\n  }\n": types.ConsoleSummaryRefreshDocument,
    "\n  mutation ConsoleCritique($id: ID!) {\n    trajectoryCritique(sessionId: $id) {\n      findings {\n        recordUuid\n        recordSeq\n        severity\n        body\n      }\n    }\n  }\n": types.ConsoleCritiqueDocument,
    "\n  subscription ConsoleDiscuss($id: ID!, $input: DiscussInput!) {\n    trajectoryDiscussStream(sessionId: $id, input: $input) {\n      delta\n      done {\n        answer\n      }\n    }\n  }\n": types.ConsoleDiscussDocument,
    "\n  query ConsoleCompareParent($id: ID!) {\n    trajectoryMeta(sessionId: $id) {\n      sessionId\n      title\n      forkedFrom {\n        parent {\n          sessionId\n          title\n        }\n      }\n    }\n  }\n": types.ConsoleCompareParentDocument,
    "\n  fragment CompareSide on DiffSide {\n    sessionId\n    title\n    records\n    toolCalls\n    errors\n    tokens {\n      input\n      output\n    }\n  }\n": types.CompareSideFragmentDoc,
    "\n  query ConsoleTrajectoryDiff($base: ID!, $other: ID!, $from: Int, $first: Int) {\n    trajectoryDiff(base: $base, other: $other, from: $from, first: $first) {\n      total\n      from\n      hasMore\n      counts {\n        same\n        changed\n        removed\n        added\n      }\n      divergence {\n        index\n        baseSeq\n        otherSeq\n      }\n      base {\n        ...CompareSide\n      }\n      other {\n        ...CompareSide\n      }\n      rows {\n        index\n        kind\n        baseSeq\n        otherSeq\n        baseText\n        otherText\n        segments {\n          kind\n          text\n        }\n      }\n    }\n  }\n": types.ConsoleTrajectoryDiffDocument,
    "\n  query ConsoleTrajectorySearch($q: String!, $offset: Int) {\n    trajectorySearch(q: $q, limit: 20, offset: $offset) {\n      total\n      offset\n      items {\n        sessionId\n        title\n        ownerName\n        seq\n        uuid\n        snippet\n      }\n    }\n  }\n": types.ConsoleTrajectorySearchDocument,
    "\n  query ConsoleShareLinks($id: ID!) {\n    trajectoryShareLinks(sessionId: $id) {\n      linkId\n      open\n      views\n      lastViewedAt\n      expiresAt\n      revokedAt\n      maskEmails\n      createdAt\n      createdBy {\n        name\n      }\n    }\n  }\n": types.ConsoleShareLinksDocument,
    "\n  mutation ConsoleShareLinkCreate($id: ID!, $input: ShareLinkInput) {\n    trajectoryShareLinkCreate(sessionId: $id, input: $input) {\n      url\n      link {\n        linkId\n      }\n    }\n  }\n": types.ConsoleShareLinkCreateDocument,
    "\n  mutation ConsoleShareLinkRevoke($linkId: ID!) {\n    trajectoryShareLinkRevoke(linkId: $linkId) {\n      linkId\n      open\n      revokedAt\n    }\n  }\n": types.ConsoleShareLinkRevokeDocument,
    "\n  query ConsoleTrajectory($id: ID!) {\n    me {\n      id\n    }\n    trajectoryMeta(sessionId: $id) {\n      sessionId\n      title\n      owner {\n        userId\n        name\n      }\n      viewerCan {\n        annotate\n        resolve\n        fork\n        changeVisibility\n        refreshSummary\n        share\n      }\n      labId\n      visibility\n      count\n      source\n      createdAt\n      updatedAt\n      openAnnotations\n      tokens {\n        input\n        output\n      }\n      forkedFrom {\n        sessionId\n        seq\n        parent {\n          sessionId\n          title\n          owner {\n            name\n          }\n        }\n      }\n    }\n    trajectoryAnnotations(sessionId: $id) {\n      items {\n        annotationId\n        author {\n          userId\n          name\n        }\n        body\n        createdAt\n        recordUuid\n        replyTo\n        status\n        resolvedAt\n      }\n    }\n    labs {\n      id\n      name\n    }\n  }\n": types.ConsoleTrajectoryDocument,
    "\n  query ConsoleTrajectoryRecords($id: ID!, $after: Int, $first: Int) {\n    trajectoryRecords(sessionId: $id, after: $after, first: $first) {\n      hasMore\n      items {\n        seq\n        text\n      }\n    }\n  }\n": types.ConsoleTrajectoryRecordsDocument,
    "\n  query ConsoleTrajectoryFind($id: ID!, $text: String!) {\n    trajectoryFind(sessionId: $id, text: $text) {\n      seqs\n      total\n    }\n  }\n": types.ConsoleTrajectoryFindDocument,
    "\n  subscription ConsoleRecordsAppended($id: ID!) {\n    trajectoryRecordsAppended(sessionId: $id) {\n      count\n      records\n    }\n  }\n": types.ConsoleRecordsAppendedDocument,
    "\n  mutation ConsoleAnnotate($id: ID!, $input: AnnotationInput!) {\n    trajectoryAnnotate(sessionId: $id, input: $input) {\n      annotationId\n    }\n  }\n": types.ConsoleAnnotateDocument,
    "\n  mutation ConsoleAnnotationResolve($id: ID!, $annotationId: ID!) {\n    trajectoryAnnotationResolve(sessionId: $id, annotationId: $annotationId) {\n      annotationId\n      status\n    }\n  }\n": types.ConsoleAnnotationResolveDocument,
    "\n  mutation ConsoleFork($id: ID!, $input: ForkInput!) {\n    trajectoryFork(sessionId: $id, input: $input) {\n      sessionId\n    }\n  }\n": types.ConsoleForkDocument,
    "\n  mutation ConsoleVisibility($id: ID!, $input: VisibilityInput!) {\n    trajectoryVisibilitySet(sessionId: $id, input: $input) {\n      sessionId\n      visibility\n      labId\n    }\n  }\n": types.ConsoleVisibilityDocument,
    "\n  query ConsoleFigureUrl($id: ID!, $path: String!) {\n    trajectoryFigureUrl(sessionId: $id, path: $path)\n  }\n": types.ConsoleFigureUrlDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleMe {\n    me {\n      id\n      name\n      email\n      isAdmin\n    }\n  }\n"): (typeof documents)["\n  query ConsoleMe {\n    me {\n      id\n      name\n      email\n      isAdmin\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSignOut {\n    authLogout\n  }\n"): (typeof documents)["\n  mutation ConsoleSignOut {\n    authLogout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAccount {\n    me {\n      id\n      name\n      email\n      planCode\n      planExpiresAt\n      effectiveTier\n      storageUsedBytes\n      storageQuotaBytes\n      hasPassword\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAccount {\n    me {\n      id\n      name\n      email\n      planCode\n      planExpiresAt\n      effectiveTier\n      storageUsedBytes\n      storageQuotaBytes\n      hasPassword\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleMySessions {\n    mySessions {\n      id\n      current\n      userAgent\n      address\n      method\n      createdAt\n      lastSeenAt\n    }\n  }\n"): (typeof documents)["\n  query ConsoleMySessions {\n    mySessions {\n      id\n      current\n      userAgent\n      address\n      method\n      createdAt\n      lastSeenAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleMyTokens {\n    myTokens(limit: 500) {\n      total\n      items {\n        tokenId\n        label\n        createdAt\n        expiresAt\n        revokedAt\n        lastUsedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleMyTokens {\n    myTokens(limit: 500) {\n      total\n      items {\n        tokenId\n        label\n        createdAt\n        expiresAt\n        revokedAt\n        lastUsedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSetPassword($input: PasswordSetInput!) {\n    setPassword(input: $input)\n  }\n"): (typeof documents)["\n  mutation ConsoleSetPassword($input: PasswordSetInput!) {\n    setPassword(input: $input)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRevokeSession($sessionId: ID!) {\n    revokeSession(sessionId: $sessionId)\n  }\n"): (typeof documents)["\n  mutation ConsoleRevokeSession($sessionId: ID!) {\n    revokeSession(sessionId: $sessionId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRevokeOtherSessions {\n    revokeOtherSessions\n  }\n"): (typeof documents)["\n  mutation ConsoleRevokeOtherSessions {\n    revokeOtherSessions\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleMyTokenCreate($input: TokenCreateInput!) {\n    myTokenCreate(input: $input) {\n      tokenId\n      token\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleMyTokenCreate($input: TokenCreateInput!) {\n    myTokenCreate(input: $input) {\n      tokenId\n      token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleMyTokenRevoke($tokenId: ID!) {\n    myTokenRevoke(tokenId: $tokenId)\n  }\n"): (typeof documents)["\n  mutation ConsoleMyTokenRevoke($tokenId: ID!) {\n    myTokenRevoke(tokenId: $tokenId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAdminStats {\n    adminStats {\n      generatedAt\n      onlineUsers\n      dau\n      wau\n      mau\n      registrations {\n        today\n        total\n      }\n      plans {\n        planCode\n        activeUsers\n      }\n      llm {\n        last5m {\n          calls\n          users\n          tokensIn\n          tokensOut\n        }\n        last1h {\n          calls\n          users\n          tokensIn\n          tokensOut\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAdminStats {\n    adminStats {\n      generatedAt\n      onlineUsers\n      dau\n      wau\n      mau\n      registrations {\n        today\n        total\n      }\n      plans {\n        planCode\n        activeUsers\n      }\n      llm {\n        last5m {\n          calls\n          users\n          tokensIn\n          tokensOut\n        }\n        last1h {\n          calls\n          users\n          tokensIn\n          tokensOut\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAdminUsers($q: String, $offset: Int, $limit: Int) {\n    adminUsers(q: $q, offset: $offset, limit: $limit) {\n      total\n      offset\n      limit\n      items {\n        id\n        name\n        email\n        planCode\n        isAdmin\n        disabled\n        lastActiveAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAdminUsers($q: String, $offset: Int, $limit: Int) {\n    adminUsers(q: $q, offset: $offset, limit: $limit) {\n      total\n      offset\n      limit\n      items {\n        id\n        name\n        email\n        planCode\n        isAdmin\n        disabled\n        lastActiveAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAdminUserUpdate($id: ID!, $input: UserUpdateInput!) {\n    adminUserUpdate(id: $id, input: $input) {\n      id\n      disabled\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAdminUserUpdate($id: ID!, $input: UserUpdateInput!) {\n    adminUserUpdate(id: $id, input: $input) {\n      id\n      disabled\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAdminPasswordLink($userId: ID!) {\n    passwordLink(userId: $userId) {\n      url\n      expiresAt\n      mailed\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAdminPasswordLink($userId: ID!) {\n    passwordLink(userId: $userId) {\n      url\n      expiresAt\n      mailed\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAdminUserCreate($input: UserCreateInput!) {\n    adminUserCreate(input: $input) {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAdminUserCreate($input: UserCreateInput!) {\n    adminUserCreate(input: $input) {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAdminTokenCreate($userId: ID!, $input: TokenCreateInput!) {\n    adminTokenCreate(userId: $userId, input: $input) {\n      token\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAdminTokenCreate($userId: ID!, $input: TokenCreateInput!) {\n    adminTokenCreate(userId: $userId, input: $input) {\n      token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAdminUserTokens($userId: ID!, $offset: Int, $limit: Int) {\n    adminUserTokens(userId: $userId, offset: $offset, limit: $limit) {\n      total\n      items {\n        tokenId\n        label\n        createdAt\n        expiresAt\n        revokedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAdminUserTokens($userId: ID!, $offset: Int, $limit: Int) {\n    adminUserTokens(userId: $userId, offset: $offset, limit: $limit) {\n      total\n      items {\n        tokenId\n        label\n        createdAt\n        expiresAt\n        revokedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAdminTokenRevoke($userId: ID!, $tokenId: ID!) {\n    adminTokenRevoke(userId: $userId, tokenId: $tokenId)\n  }\n"): (typeof documents)["\n  mutation ConsoleAdminTokenRevoke($userId: ID!, $tokenId: ID!) {\n    adminTokenRevoke(userId: $userId, tokenId: $tokenId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAdminLabs($q: String, $offset: Int, $limit: Int) {\n    adminLabs(q: $q, offset: $offset, limit: $limit) {\n      total\n      items {\n        id\n        name\n        status\n        seatQuota\n        seatsUsed\n        createdAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAdminLabs($q: String, $offset: Int, $limit: Int) {\n    adminLabs(q: $q, offset: $offset, limit: $limit) {\n      total\n      items {\n        id\n        name\n        status\n        seatQuota\n        seatsUsed\n        createdAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAdminLabUpdate($id: ID!, $input: LabAdminUpdateInput!) {\n    adminLabUpdate(id: $id, input: $input) {\n      id\n      status\n      seatQuota\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAdminLabUpdate($id: ID!, $input: LabAdminUpdateInput!) {\n    adminLabUpdate(id: $id, input: $input) {\n      id\n      status\n      seatQuota\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAdminTrajectories($q: String) {\n    adminTrajectories(q: $q, limit: 100) {\n      total\n      items {\n        sessionId\n        title\n        owner {\n          name\n          email\n        }\n        source\n        count\n        bytes\n        updatedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAdminTrajectories($q: String) {\n    adminTrajectories(q: $q, limit: 100) {\n      total\n      items {\n        sessionId\n        title\n        owner {\n          name\n          email\n        }\n        source\n        count\n        bytes\n        updatedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAdminStorage {\n    adminStorageSummary {\n      totalBytes\n      users {\n        userId\n        email\n        usedBytes\n        quotaBytes\n        sessions\n      }\n      labs {\n        labId\n        name\n        bytes\n        sessions\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAdminStorage {\n    adminStorageSummary {\n      totalBytes\n      users {\n        userId\n        email\n        usedBytes\n        quotaBytes\n        sessions\n      }\n      labs {\n        labId\n        name\n        bytes\n        sessions\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAdminSegmentation {\n    adminSegmentation(limit: 20) {\n      domain\n      users\n      paid\n      granted\n      byTier {\n        tier\n        users\n        paid\n        granted\n      }\n      byType {\n        type\n        users\n        paid\n        granted\n      }\n      byInstitution {\n        name\n        users\n        paid\n        granted\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAdminSegmentation {\n    adminSegmentation(limit: 20) {\n      domain\n      users\n      paid\n      granted\n      byTier {\n        tier\n        users\n        paid\n        granted\n      }\n      byType {\n        type\n        users\n        paid\n        granted\n      }\n      byInstitution {\n        name\n        users\n        paid\n        granted\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleA2aTask($id: ID!) {\n    a2aTask(id: $id, historyLength: 100) {\n      id\n      contextId\n      caller {\n        ...ConsoleA2aCaller\n      }\n      historyTimes {\n        messageId\n        sentAt\n      }\n      status {\n        state\n        timestamp\n        message {\n          parts {\n            text\n          }\n        }\n      }\n      history {\n        messageId\n        role\n        metadata\n        parts {\n          text\n          data\n          filename\n          mediaType\n        }\n      }\n      artifacts {\n        artifactId\n        name\n        description\n        parts {\n          text\n          filename\n          mediaType\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleA2aTask($id: ID!) {\n    a2aTask(id: $id, historyLength: 100) {\n      id\n      contextId\n      caller {\n        ...ConsoleA2aCaller\n      }\n      historyTimes {\n        messageId\n        sentAt\n      }\n      status {\n        state\n        timestamp\n        message {\n          parts {\n            text\n          }\n        }\n      }\n      history {\n        messageId\n        role\n        metadata\n        parts {\n          text\n          data\n          filename\n          mediaType\n        }\n      }\n      artifacts {\n        artifactId\n        name\n        description\n        parts {\n          text\n          filename\n          mediaType\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleA2aTaskEvents($id: ID!) {\n    a2aTaskEvents(taskId: $id, refuseTerminal: false) {\n      statusUpdate {\n        status {\n          state\n        }\n      }\n      artifactUpdate {\n        artifact {\n          artifactId\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleA2aTaskEvents($id: ID!) {\n    a2aTaskEvents(taskId: $id, refuseTerminal: false) {\n      statusUpdate {\n        status {\n          state\n        }\n      }\n      artifactUpdate {\n        artifact {\n          artifactId\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleA2aApprovalAnswer($taskId: ID!, $decision: A2aApprovalDecision!) {\n    a2aApprovalAnswer(taskId: $taskId, decision: $decision) {\n      id\n      status {\n        state\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleA2aApprovalAnswer($taskId: ID!, $decision: A2aApprovalDecision!) {\n    a2aApprovalAnswer(taskId: $taskId, decision: $decision) {\n      id\n      status {\n        state\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleA2aAccess {\n    a2aViewerCan {\n      useWebTools\n    }\n  }\n"): (typeof documents)["\n  query ConsoleA2aAccess {\n    a2aViewerCan {\n      useWebTools\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleA2aKeys {\n    a2aKeys {\n      id\n      label\n      createdAt\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  query ConsoleA2aKeys {\n    a2aKeys {\n      id\n      label\n      createdAt\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleA2aKeyCreate($label: String!) {\n    a2aKeyCreate(label: $label) {\n      secret\n      key {\n        id\n        label\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleA2aKeyCreate($label: String!) {\n    a2aKeyCreate(label: $label) {\n      secret\n      key {\n        id\n        label\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleA2aKeyRevoke($id: ID!) {\n    a2aKeyRevoke(id: $id) {\n      id\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleA2aKeyRevoke($id: ID!) {\n    a2aKeyRevoke(id: $id) {\n      id\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleA2aTasks($first: Int, $after: String, $state: A2aTaskState) {\n    a2aTasks(first: $first, after: $after, state: $state) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        contextId\n        status {\n          state\n          timestamp\n        }\n        caller {\n          ...ConsoleA2aCaller\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleA2aTasks($first: Int, $after: String, $state: A2aTaskState) {\n    a2aTasks(first: $first, after: $after, state: $state) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        contextId\n        status {\n          state\n          timestamp\n        }\n        caller {\n          ...ConsoleA2aCaller\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleOutboundAgents {\n    a2aAgents {\n      id\n      name\n      url\n      enabled\n      status\n      error\n      checkedAt\n    }\n  }\n"): (typeof documents)["\n  query ConsoleOutboundAgents {\n    a2aAgents {\n      id\n      name\n      url\n      enabled\n      status\n      error\n      checkedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleOutboundAgentAdd($input: A2aAgentCreateInput!) {\n    a2aAgentCreate(input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleOutboundAgentAdd($input: A2aAgentCreateInput!) {\n    a2aAgentCreate(input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleOutboundAgentUpdate($id: ID!, $input: A2aAgentUpdateInput!) {\n    a2aAgentUpdate(id: $id, input: $input) {\n      id\n      enabled\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleOutboundAgentUpdate($id: ID!, $input: A2aAgentUpdateInput!) {\n    a2aAgentUpdate(id: $id, input: $input) {\n      id\n      enabled\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleOutboundAgentTest($id: ID!) {\n    a2aAgentTest(id: $id) {\n      ok\n      name\n      error\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleOutboundAgentTest($id: ID!) {\n    a2aAgentTest(id: $id) {\n      ok\n      name\n      error\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleOutboundAgentRemove($id: ID!) {\n    a2aAgentDelete(id: $id) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleOutboundAgentRemove($id: ID!) {\n    a2aAgentDelete(id: $id) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConsoleA2aCaller on A2aTaskCaller {\n    keyLabel\n    keyRevokedAt\n    openEndpoint\n    ownerName\n  }\n"): (typeof documents)["\n  fragment ConsoleA2aCaller on A2aTaskCaller {\n    keyLabel\n    keyRevokedAt\n    openEndpoint\n    ownerName\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAuditEvents($actor: String, $action: String, $since: DateTimeISO, $offset: Int, $limit: Int) {\n    adminAuditEvents(actor: $actor, action: $action, since: $since, offset: $offset, limit: $limit) {\n      total\n      items {\n        id\n        action\n        createdAt\n        actor {\n          userId\n          name\n          email\n        }\n        subject {\n          userId\n          name\n          email\n        }\n        lab {\n          labId\n          name\n        }\n        detail\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleAuditEvents($actor: String, $action: String, $since: DateTimeISO, $offset: Int, $limit: Int) {\n    adminAuditEvents(actor: $actor, action: $action, since: $since, offset: $offset, limit: $limit) {\n      total\n      items {\n        id\n        action\n        createdAt\n        actor {\n          userId\n          name\n          email\n        }\n        subject {\n          userId\n          name\n          email\n        }\n        lab {\n          labId\n          name\n        }\n        detail\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCompute {\n    computeCredits {\n      balanceCredits\n      reservedCredits\n      tokenLine {\n        credits\n        tokensIn\n        tokensOut\n      }\n      leases {\n        leaseId\n        goal\n        state\n        provider\n        createdAt\n        idleExpiresAt\n        bootstrapDeadline\n        releasedAt\n        ceilingCredits\n        spentCredits\n        machine {\n          cpus\n          memoryGb\n          gpu\n          rateCreditsPerMinute\n        }\n        idleRefreshes {\n          at\n          idleExpiresAt\n        }\n      }\n    }\n    computePlanCurrent {\n      planId\n      goal\n      steps\n      status\n      createdAt\n      estimatedCredits\n      estimatedMinutes\n      spendCeilingCredits\n      tokenCharge {\n        credits\n      }\n      machine {\n        cpus\n        memoryGb\n        gpu\n        rateCreditsPerMinute\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleCompute {\n    computeCredits {\n      balanceCredits\n      reservedCredits\n      tokenLine {\n        credits\n        tokensIn\n        tokensOut\n      }\n      leases {\n        leaseId\n        goal\n        state\n        provider\n        createdAt\n        idleExpiresAt\n        bootstrapDeadline\n        releasedAt\n        ceilingCredits\n        spentCredits\n        machine {\n          cpus\n          memoryGb\n          gpu\n          rateCreditsPerMinute\n        }\n        idleRefreshes {\n          at\n          idleExpiresAt\n        }\n      }\n    }\n    computePlanCurrent {\n      planId\n      goal\n      steps\n      status\n      createdAt\n      estimatedCredits\n      estimatedMinutes\n      spendCeilingCredits\n      tokenCharge {\n        credits\n      }\n      machine {\n        cpus\n        memoryGb\n        gpu\n        rateCreditsPerMinute\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleComputePast($first: Int!, $after: String) {\n    computeSessionsPast(first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n      }\n      nodes {\n        leaseId\n        goal\n        state\n        provider\n        createdAt\n        bootstrapDeadline\n        releasedAt\n        endReason\n        ceilingCredits\n        spentCredits\n        machine {\n          cpus\n          memoryGb\n          gpu\n          rateCreditsPerMinute\n        }\n        idleRefreshes {\n          at\n          idleExpiresAt\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleComputePast($first: Int!, $after: String) {\n    computeSessionsPast(first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n      }\n      nodes {\n        leaseId\n        goal\n        state\n        provider\n        createdAt\n        bootstrapDeadline\n        releasedAt\n        endReason\n        ceilingCredits\n        spentCredits\n        machine {\n          cpus\n          memoryGb\n          gpu\n          rateCreditsPerMinute\n        }\n        idleRefreshes {\n          at\n          idleExpiresAt\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleLeaseChanged($leaseId: Int!) {\n    computeLeaseChanged(leaseId: $leaseId) {\n      leaseId\n      state\n      spentCredits\n      ceilingCredits\n      idleExpiresAt\n      at\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleLeaseChanged($leaseId: Int!) {\n    computeLeaseChanged(leaseId: $leaseId) {\n      leaseId\n      state\n      spentCredits\n      ceilingCredits\n      idleExpiresAt\n      at\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsolePlanApprove($planId: Int!) {\n    computePlanApprove(planId: $planId) {\n      leaseId\n      provider\n      claimToken\n      createdAt\n      bootstrapDeadline\n    }\n  }\n"): (typeof documents)["\n  mutation ConsolePlanApprove($planId: Int!) {\n    computePlanApprove(planId: $planId) {\n      leaseId\n      provider\n      claimToken\n      createdAt\n      bootstrapDeadline\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsolePlanDecline($planId: Int!) {\n    computePlanDecline(planId: $planId) {\n      planId\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation ConsolePlanDecline($planId: Int!) {\n    computePlanDecline(planId: $planId) {\n      planId\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLeaseRelease($leaseId: Int!) {\n    computeSessionRelease(leaseId: $leaseId) {\n      leaseId\n      state\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLeaseRelease($leaseId: Int!) {\n    computeSessionRelease(leaseId: $leaseId) {\n      leaseId\n      state\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLeaseTopUp($leaseId: Int!, $input: TopUpInput!) {\n    computeSessionTopUp(leaseId: $leaseId, input: $input) {\n      leaseId\n      ceilingCredits\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLeaseTopUp($leaseId: Int!, $input: TopUpInput!) {\n    computeSessionTopUp(leaseId: $leaseId, input: $input) {\n      leaseId\n      ceilingCredits\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLabUsage($labId: ID!, $days: Int!) {\n    labUsage(labId: $labId) {\n      totals {\n        activeMembers\n        sessions\n        tokensIn\n        tokensOut\n      }\n      members {\n        memberUserId\n        name\n        status\n        sessions\n        tokensIn\n        tokensOut\n      }\n      daily(days: $days) {\n        day\n        sessions\n        tokensIn\n        tokensOut\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleLabUsage($labId: ID!, $days: Int!) {\n    labUsage(labId: $labId) {\n      totals {\n        activeMembers\n        sessions\n        tokensIn\n        tokensOut\n      }\n      members {\n        memberUserId\n        name\n        status\n        sessions\n        tokensIn\n        tokensOut\n      }\n      daily(days: $days) {\n        day\n        sessions\n        tokensIn\n        tokensOut\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLab($id: ID!) {\n    lab(id: $id) {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n      invitationCode\n      codeExpiresAt\n      viewerCan {\n        rotateCode\n        manageMembers\n        viewUsage\n      }\n      members {\n        memberUserId\n        name\n        email\n        role\n        status\n        requestedAt\n        joinedAt\n      }\n    }\n    labBoard(labId: $id, limit: 20) {\n      items {\n        sessionId\n        title\n        ownerName\n        state\n        count\n        lastActivityAt\n        openAnnotations\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleLab($id: ID!) {\n    lab(id: $id) {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n      invitationCode\n      codeExpiresAt\n      viewerCan {\n        rotateCode\n        manageMembers\n        viewUsage\n      }\n      members {\n        memberUserId\n        name\n        email\n        role\n        status\n        requestedAt\n        joinedAt\n      }\n    }\n    labBoard(labId: $id, limit: 20) {\n      items {\n        sessionId\n        title\n        ownerName\n        state\n        count\n        lastActivityAt\n        openAnnotations\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleLabMemberEvents($labId: ID!) {\n    labMemberEvents(labId: $labId) {\n      memberUserId\n      status\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleLabMemberEvents($labId: ID!) {\n    labMemberEvents(labId: $labId) {\n      memberUserId\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {\n    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {\n      memberUserId\n      role\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {\n    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {\n      memberUserId\n      role\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLabRotateCode($labId: ID!) {\n    labRotateCode(labId: $labId) {\n      id\n      invitationCode\n      codeExpiresAt\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLabRotateCode($labId: ID!) {\n    labRotateCode(labId: $labId) {\n      id\n      invitationCode\n      codeExpiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleLabs {\n    labs {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n    }\n    labJoinRequests {\n      labName\n      requestedAt\n    }\n  }\n"): (typeof documents)["\n  query ConsoleLabs {\n    labs {\n      id\n      name\n      role\n      status\n      seatQuota\n      seatsUsed\n    }\n    labJoinRequests {\n      labName\n      requestedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLabCreate($input: LabCreateInput!) {\n    labCreate(input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLabCreate($input: LabCreateInput!) {\n    labCreate(input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLabJoin($input: LabJoinInput!) {\n    labJoin(input: $input) {\n      labId\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleLabJoin($input: LabJoinInput!) {\n    labJoin(input: $input) {\n      labId\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleReleases {\n    me {\n      isAdmin\n    }\n    desktop: releaseManifest(product: \"desktop\") {\n      ...ConsoleRelease\n    }\n    core: releaseManifest(product: \"core\") {\n      ...ConsoleRelease\n    }\n  }\n\n  fragment ConsoleRelease on ReleaseManifestNode {\n    product\n    version\n    pubDate\n    notes\n    files {\n      filename\n      platform\n      arch\n      size\n      sha256\n      url\n    }\n  }\n"): (typeof documents)["\n  query ConsoleReleases {\n    me {\n      isAdmin\n    }\n    desktop: releaseManifest(product: \"desktop\") {\n      ...ConsoleRelease\n    }\n    core: releaseManifest(product: \"core\") {\n      ...ConsoleRelease\n    }\n  }\n\n  fragment ConsoleRelease on ReleaseManifestNode {\n    product\n    version\n    pubDate\n    notes\n    files {\n      filename\n      platform\n      arch\n      size\n      sha256\n      url\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleReleaseCounts {\n    desktopFiles: releaseFiles(product: \"desktop\") {\n      ...ConsoleReleaseCounts\n    }\n    coreFiles: releaseFiles(product: \"core\") {\n      ...ConsoleReleaseCounts\n    }\n  }\n\n  fragment ConsoleReleaseCounts on ReleaseFileStatsNode {\n    version\n    filename\n    size\n    sha256\n    downloads\n    createdAt\n  }\n"): (typeof documents)["\n  query ConsoleReleaseCounts {\n    desktopFiles: releaseFiles(product: \"desktop\") {\n      ...ConsoleReleaseCounts\n    }\n    coreFiles: releaseFiles(product: \"core\") {\n      ...ConsoleReleaseCounts\n    }\n  }\n\n  fragment ConsoleReleaseCounts on ReleaseFileStatsNode {\n    version\n    filename\n    size\n    sha256\n    downloads\n    createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleShared($token: String!) {\n    sharedTrajectory(token: $token) {\n      title\n      source\n      recordCount\n      createdAt\n      updatedAt\n      expiresAt\n      maskEmails\n    }\n  }\n"): (typeof documents)["\n  query ConsoleShared($token: String!) {\n    sharedTrajectory(token: $token) {\n      title\n      source\n      recordCount\n      createdAt\n      updatedAt\n      expiresAt\n      maskEmails\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleSharedRecords($token: String!, $after: Int, $first: Int) {\n    sharedTrajectoryRecords(token: $token, after: $after, first: $first) {\n      hasMore\n      items {\n        seq\n        text\n        masked\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleSharedRecords($token: String!, $after: Int, $first: Int) {\n    sharedTrajectoryRecords(token: $token, after: $after, first: $first) {\n      hasMore\n      items {\n        seq\n        text\n        masked\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTrajectories($labId: ID, $owner: ID, $source: String, $sharedOnly: Boolean, $includeArchived: Boolean) {\n    trajectories(labId: $labId, owner: $owner, source: $source, sharedOnly: $sharedOnly, includeArchived: $includeArchived, limit: 500) {\n      total\n      items {\n        sessionId\n        title\n        owner {\n          userId\n          name\n        }\n        source\n        visibility\n        count\n        openAnnotations\n        updatedAt\n        archivedAt\n      }\n    }\n    me {\n      id\n    }\n    labs {\n      id\n      name\n      members {\n        memberUserId\n        name\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTrajectories($labId: ID, $owner: ID, $source: String, $sharedOnly: Boolean, $includeArchived: Boolean) {\n    trajectories(labId: $labId, owner: $owner, source: $source, sharedOnly: $sharedOnly, includeArchived: $includeArchived, limit: 500) {\n      total\n      items {\n        sessionId\n        title\n        owner {\n          userId\n          name\n        }\n        source\n        visibility\n        count\n        openAnnotations\n        updatedAt\n        archivedAt\n      }\n    }\n    me {\n      id\n    }\n    labs {\n      id\n      name\n      members {\n        memberUserId\n        name\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTrajectorySummary($id: ID!) {\n    trajectorySummary(sessionId: $id) {\n      enabled\n      reason\n      status\n      stale\n      error\n      summary {\n        text\n        generatedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTrajectorySummary($id: ID!) {\n    trajectorySummary(sessionId: $id) {\n      enabled\n      reason\n      status\n      stale\n      error\n      summary {\n        text\n        generatedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSummaryRefresh($id: ID!) {\n    trajectorySummaryRefresh(sessionId: $id) {\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleSummaryRefresh($id: ID!) {\n    trajectorySummaryRefresh(sessionId: $id) {\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCritique($id: ID!) {\n    trajectoryCritique(sessionId: $id) {\n      findings {\n        recordUuid\n        recordSeq\n        severity\n        body\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleCritique($id: ID!) {\n    trajectoryCritique(sessionId: $id) {\n      findings {\n        recordUuid\n        recordSeq\n        severity\n        body\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleDiscuss($id: ID!, $input: DiscussInput!) {\n    trajectoryDiscussStream(sessionId: $id, input: $input) {\n      delta\n      done {\n        answer\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleDiscuss($id: ID!, $input: DiscussInput!) {\n    trajectoryDiscussStream(sessionId: $id, input: $input) {\n      delta\n      done {\n        answer\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleCompareParent($id: ID!) {\n    trajectoryMeta(sessionId: $id) {\n      sessionId\n      title\n      forkedFrom {\n        parent {\n          sessionId\n          title\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleCompareParent($id: ID!) {\n    trajectoryMeta(sessionId: $id) {\n      sessionId\n      title\n      forkedFrom {\n        parent {\n          sessionId\n          title\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CompareSide on DiffSide {\n    sessionId\n    title\n    records\n    toolCalls\n    errors\n    tokens {\n      input\n      output\n    }\n  }\n"): (typeof documents)["\n  fragment CompareSide on DiffSide {\n    sessionId\n    title\n    records\n    toolCalls\n    errors\n    tokens {\n      input\n      output\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTrajectoryDiff($base: ID!, $other: ID!, $from: Int, $first: Int) {\n    trajectoryDiff(base: $base, other: $other, from: $from, first: $first) {\n      total\n      from\n      hasMore\n      counts {\n        same\n        changed\n        removed\n        added\n      }\n      divergence {\n        index\n        baseSeq\n        otherSeq\n      }\n      base {\n        ...CompareSide\n      }\n      other {\n        ...CompareSide\n      }\n      rows {\n        index\n        kind\n        baseSeq\n        otherSeq\n        baseText\n        otherText\n        segments {\n          kind\n          text\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTrajectoryDiff($base: ID!, $other: ID!, $from: Int, $first: Int) {\n    trajectoryDiff(base: $base, other: $other, from: $from, first: $first) {\n      total\n      from\n      hasMore\n      counts {\n        same\n        changed\n        removed\n        added\n      }\n      divergence {\n        index\n        baseSeq\n        otherSeq\n      }\n      base {\n        ...CompareSide\n      }\n      other {\n        ...CompareSide\n      }\n      rows {\n        index\n        kind\n        baseSeq\n        otherSeq\n        baseText\n        otherText\n        segments {\n          kind\n          text\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTrajectorySearch($q: String!, $offset: Int) {\n    trajectorySearch(q: $q, limit: 20, offset: $offset) {\n      total\n      offset\n      items {\n        sessionId\n        title\n        ownerName\n        seq\n        uuid\n        snippet\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTrajectorySearch($q: String!, $offset: Int) {\n    trajectorySearch(q: $q, limit: 20, offset: $offset) {\n      total\n      offset\n      items {\n        sessionId\n        title\n        ownerName\n        seq\n        uuid\n        snippet\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleShareLinks($id: ID!) {\n    trajectoryShareLinks(sessionId: $id) {\n      linkId\n      open\n      views\n      lastViewedAt\n      expiresAt\n      revokedAt\n      maskEmails\n      createdAt\n      createdBy {\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleShareLinks($id: ID!) {\n    trajectoryShareLinks(sessionId: $id) {\n      linkId\n      open\n      views\n      lastViewedAt\n      expiresAt\n      revokedAt\n      maskEmails\n      createdAt\n      createdBy {\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleShareLinkCreate($id: ID!, $input: ShareLinkInput) {\n    trajectoryShareLinkCreate(sessionId: $id, input: $input) {\n      url\n      link {\n        linkId\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleShareLinkCreate($id: ID!, $input: ShareLinkInput) {\n    trajectoryShareLinkCreate(sessionId: $id, input: $input) {\n      url\n      link {\n        linkId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleShareLinkRevoke($linkId: ID!) {\n    trajectoryShareLinkRevoke(linkId: $linkId) {\n      linkId\n      open\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleShareLinkRevoke($linkId: ID!) {\n    trajectoryShareLinkRevoke(linkId: $linkId) {\n      linkId\n      open\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTrajectory($id: ID!) {\n    me {\n      id\n    }\n    trajectoryMeta(sessionId: $id) {\n      sessionId\n      title\n      owner {\n        userId\n        name\n      }\n      viewerCan {\n        annotate\n        resolve\n        fork\n        changeVisibility\n        refreshSummary\n        share\n      }\n      labId\n      visibility\n      count\n      source\n      createdAt\n      updatedAt\n      openAnnotations\n      tokens {\n        input\n        output\n      }\n      forkedFrom {\n        sessionId\n        seq\n        parent {\n          sessionId\n          title\n          owner {\n            name\n          }\n        }\n      }\n    }\n    trajectoryAnnotations(sessionId: $id) {\n      items {\n        annotationId\n        author {\n          userId\n          name\n        }\n        body\n        createdAt\n        recordUuid\n        replyTo\n        status\n        resolvedAt\n      }\n    }\n    labs {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTrajectory($id: ID!) {\n    me {\n      id\n    }\n    trajectoryMeta(sessionId: $id) {\n      sessionId\n      title\n      owner {\n        userId\n        name\n      }\n      viewerCan {\n        annotate\n        resolve\n        fork\n        changeVisibility\n        refreshSummary\n        share\n      }\n      labId\n      visibility\n      count\n      source\n      createdAt\n      updatedAt\n      openAnnotations\n      tokens {\n        input\n        output\n      }\n      forkedFrom {\n        sessionId\n        seq\n        parent {\n          sessionId\n          title\n          owner {\n            name\n          }\n        }\n      }\n    }\n    trajectoryAnnotations(sessionId: $id) {\n      items {\n        annotationId\n        author {\n          userId\n          name\n        }\n        body\n        createdAt\n        recordUuid\n        replyTo\n        status\n        resolvedAt\n      }\n    }\n    labs {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTrajectoryRecords($id: ID!, $after: Int, $first: Int) {\n    trajectoryRecords(sessionId: $id, after: $after, first: $first) {\n      hasMore\n      items {\n        seq\n        text\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTrajectoryRecords($id: ID!, $after: Int, $first: Int) {\n    trajectoryRecords(sessionId: $id, after: $after, first: $first) {\n      hasMore\n      items {\n        seq\n        text\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTrajectoryFind($id: ID!, $text: String!) {\n    trajectoryFind(sessionId: $id, text: $text) {\n      seqs\n      total\n    }\n  }\n"): (typeof documents)["\n  query ConsoleTrajectoryFind($id: ID!, $text: String!) {\n    trajectoryFind(sessionId: $id, text: $text) {\n      seqs\n      total\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleRecordsAppended($id: ID!) {\n    trajectoryRecordsAppended(sessionId: $id) {\n      count\n      records\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleRecordsAppended($id: ID!) {\n    trajectoryRecordsAppended(sessionId: $id) {\n      count\n      records\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAnnotate($id: ID!, $input: AnnotationInput!) {\n    trajectoryAnnotate(sessionId: $id, input: $input) {\n      annotationId\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAnnotate($id: ID!, $input: AnnotationInput!) {\n    trajectoryAnnotate(sessionId: $id, input: $input) {\n      annotationId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAnnotationResolve($id: ID!, $annotationId: ID!) {\n    trajectoryAnnotationResolve(sessionId: $id, annotationId: $annotationId) {\n      annotationId\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleAnnotationResolve($id: ID!, $annotationId: ID!) {\n    trajectoryAnnotationResolve(sessionId: $id, annotationId: $annotationId) {\n      annotationId\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleFork($id: ID!, $input: ForkInput!) {\n    trajectoryFork(sessionId: $id, input: $input) {\n      sessionId\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleFork($id: ID!, $input: ForkInput!) {\n    trajectoryFork(sessionId: $id, input: $input) {\n      sessionId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleVisibility($id: ID!, $input: VisibilityInput!) {\n    trajectoryVisibilitySet(sessionId: $id, input: $input) {\n      sessionId\n      visibility\n      labId\n    }\n  }\n"): (typeof documents)["\n  mutation ConsoleVisibility($id: ID!, $input: VisibilityInput!) {\n    trajectoryVisibilitySet(sessionId: $id, input: $input) {\n      sessionId\n      visibility\n      labId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleFigureUrl($id: ID!, $path: String!) {\n    trajectoryFigureUrl(sessionId: $id, path: $path)\n  }\n"): (typeof documents)["\n  query ConsoleFigureUrl($id: ID!, $path: String!) {\n    trajectoryFigureUrl(sessionId: $id, path: $path)\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;
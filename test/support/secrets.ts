/**
 * Secrets of each kind a reviewer's transcript holds (an agent that printed its environment, read
 * a config file, called an API), planted where the sharing tests look for them. Made up: none of
 * them works anywhere.
 */
export const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvredZiKRkgwlL9xNAwxXFg0x/XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC+9aGVd+Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmwIDAQAB',
  '-----END RSA PRIVATE KEY-----',
].join('\n');
export const PLANTED = {
  openai: `sk-proj-${'Ab3dE'.repeat(14)}Xyz1T3BlbkFJ${'Qr7sT'.repeat(14)}Uvw2`,
  github: `ghp_${'x1Y2'.repeat(9)}`,
  awsKeyId: 'AKIAZ7QWERTYUIOPASDF',
  awsSecret: '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',
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  pem: PEM,
  slack: 'xoxb-1234567890-1234567890123-abcdefghijklmnopqrstuvwx',
  stripe: `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
  urlPassword: 'hunter2hunter2',
  labdesk: `ldk_pat_${'k'.repeat(12)}${'S3cr'.repeat(8)}`,
};

/** A tool's output holding every planted secret, between ordinary lines that must stay. */
export const plantedTranscript = () =>
  [
    'Here is what I found in the environment:',
    `OPENAI_API_KEY=${PLANTED.openai}`,
    `GITHUB_TOKEN=${PLANTED.github}`,
    `AWS_ACCESS_KEY_ID=${PLANTED.awsKeyId}`,
    `AWS_SECRET_ACCESS_KEY=${PLANTED.awsSecret}`,
    `curl -H "Authorization: Bearer ${PLANTED.jwt}" https://api.example.com/v1/runs`,
    PLANTED.pem,
    `SLACK_BOT_TOKEN=${PLANTED.slack} STRIPE=${PLANTED.stripe}`,
    `git clone https://analyst:${PLANTED.urlPassword}@git.example.com/lab/repo.git`,
    `LABDESK_TOKEN=${PLANTED.labdesk}`,
    'Contact: ada@lab.example.org. The fit converged after 12 iterations (R² = 0.93).',
  ].join('\n');

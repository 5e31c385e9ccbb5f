import { describeProjectPurge } from './testing/project-purge-suite';

describeProjectPurge('purging deleted projects, all-in-one on the in-process bus');

import { Field, ObjectType } from 'type-graphql';

@ObjectType({
  description:
    "A push notification config an A2A caller registered on one of the agent's tasks. Its token and credentials are never shown.",
})
export class A2aPushConfigNode {
  @Field({ description: 'The config id (`pnc_…`, or the id the caller chose).' })
  id!: string;

  @Field({ description: 'The A2A task it belongs to.' })
  taskId!: string;

  @Field({ description: 'Where the notifications are POSTed.' })
  url!: string;

  @Field({ description: 'Whether an X-A2A-Notification-Token is sent with each notification.' })
  hasToken!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'The Authorization scheme sent with each notification (its credentials are not shown), or null.',
  })
  authScheme!: string | null;
}

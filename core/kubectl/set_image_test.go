package kubectl_test

import "testing"

// appDeployment is the seed's app-deployment (S3-deploy-update).
const appDeployment = `kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-deployment
  labels:
    app: app
spec:
  replicas: 3
  selector:
    matchLabels:
      app: app
  template:
    metadata:
      labels:
        app: app
    spec:
      nodeName: node01
      containers:
        - name: app
          image: app:1.0.0
          ports:
            - containerPort: 8080
EOF`

func TestSetImageThreeWays(t *testing.T) {
	s := newKubectlSession(t)
	s.run(appDeployment)
	// The seed's odd spelling names the deployment twice: both are updated.
	s.expect("kubectl --record deployment.v1.apps/app-deployment set image deployment.v1.apps/app-deployment app=app:1.0.1",
		"Flag --record has been deprecated, --record will be removed in the future\n"+
			"deployment.apps/app-deployment image updated\n"+
			"deployment.apps/app-deployment image updated\n")
	s.expect(`kubectl get deploy app-deployment -o jsonpath='{.metadata.annotations.kubernetes\.io/change-cause}'`,
		"kubectl deployment.v1.apps/app-deployment set image deployment.v1.apps/app-deployment app=app:1.0.1 --record=true")
	s.expect("kubectl set image deployment/app-deployment app=app:1.0.2 --record",
		"Flag --record has been deprecated, --record will be removed in the future\n"+
			"deployment.apps/app-deployment image updated\n")
	s.expect(`kubectl get deploy app-deployment -o jsonpath='{.metadata.annotations.kubernetes\.io/change-cause} {.spec.template.spec.containers[0].image}'`,
		"kubectl set image deployment/app-deployment app=app:1.0.2 --record=true app:1.0.2")
	// Nothing to change: kubectl says nothing.
	s.expect("kubectl set image deployment/app-deployment app=app:1.0.2", "")
	s.expect("kubectl set image deploy app-deployment '*=app:1.0.3'", "deployment.apps/app-deployment image updated\n")
	s.expect("kubectl get deploy app-deployment -o jsonpath={.spec.template.spec.containers[0].image}", "app:1.0.3")
}

func TestSetImageErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.run(appDeployment)
	s.expect("kubectl set image deploy/app-deployment nope=busybox", "error: unable to find container named \"nope\"\n")
	s.expect("kubectl set image deploy/app-deployment", "error: at least one image update is required\n")
	s.expect("kubectl set image deploy/app-deployment app=a foo", "error: all resources must be specified before image changes: foo\n")
	s.expect("kubectl set image deploy/app-deployment '*=a' app=b",
		"error: all containers are already specified by *, but saw more than one container_name=container_image pairs\n")
	s.expect("kubectl set image deploy/nope app=b", "Error from server (NotFound): deployments.apps \"nope\" not found\n")
	s.expect("kubectl set image svc/kubernetes app=b",
		"error: services/kubernetes the object is not a pod or does not have a pod template: *v1.Service\n")
	s.expect("kubectl set image deploy/app-deployment app=b --dry-run=client", "deployment.apps/app-deployment image updated (dry run)\n")
	s.expect("kubectl get deploy app-deployment -o jsonpath={.spec.template.spec.containers[0].image}", "app:1.0.0")
}
